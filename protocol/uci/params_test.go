package uci

import (
	"strings"
	"testing"
)

// TestServeParams: the search and clock parameters are options, a check
// for the search's switch and spins with their ranges; setoption sets
// them (the next hello shows the value) and refuses values out of range.
func TestServeParams(t *testing.T) {
	got := serve(t, "chess", strings.Join([]string{
		"uci", "setoption name lmr-base value 80", "setoption name selective value true", "setoption name time-horizon value 30",
		"setoption name lmr-base value 301", "setoption name selective value maybe", "setoption name time-horizon value 4", "uci", "quit",
	}, "\n"))
	text := strings.Join(got, "\n")
	for _, want := range []string{
		"option name selective type check default false",
		"option name lmr-base type spin default 87 min 0 max 300", // chess's own default (games/chess)
		"option name time-horizon type spin default 16 min 5 max 100",
		"info string error: uci: option lmr-base value \"301\": want an integer from 0 to 300",
		"info string error: uci: option selective value \"maybe\": want true or false",
		"info string error: uci: option time-horizon value \"4\": want an integer from 5 to 100",
		"option name selective type check default true",
		"option name lmr-base type spin default 80 min 0 max 300",
		"option name time-horizon type spin default 30 min 5 max 100",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
}
