package gtp

import (
	"strings"
	"testing"
)

// TestServeParams: gametune-param lists the settings in GoGui's form and
// sets one; bad names, values and forms are refused. The list gives
// Othello's own defaults (lmr-base 80, not the engine's 75).
func TestServeParams(t *testing.T) {
	got := session(t, strings.Join([]string{
		"gametune-param", "gametune-param lmr-base 90", "gametune-param selective 1", "gametune-param",
		"gametune-param lmr-base 999", "gametune-param nothing 1", "gametune-param lmr-base", "gametune-param lmr-base x",
		"known_command gametune-param",
	}, "\n"))
	if len(got) != 9 {
		t.Fatalf("%d responses: %+v", len(got), got)
	}
	for i, want := range []string{"[bool] selective 0", "", "", "[bool] selective 1", "lmr-base = 999", `no search parameter "nothing"`, "syntax error", "want a whole number", "true"} {
		if !strings.Contains(got[i].Text, want) || got[i].Error != (i >= 4 && i <= 7) {
			t.Errorf("response %d: %+v, want %q", i+1, got[i], want)
		}
	}
	for _, want := range []string{"[string] lmr-base 80 (0 to 300)", "[string] time-horizon 16 (5 to 100)"} {
		if !strings.Contains(got[0].Text, want) {
			t.Errorf("the list lacks %q:\n%s", want, got[0].Text)
		}
	}
	if !strings.Contains(got[3].Text, "[string] lmr-base 90 ") {
		t.Errorf("after gametune-param lmr-base 90:\n%s", got[3].Text)
	}
}
