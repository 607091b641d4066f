package nboard

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/protocol/protocoltest"
)

// TestServeParams: "set NAME VALUE" sets an engine parameter; a value out
// of range, a missing one or an unknown name is one status error line.
func TestServeParams(t *testing.T) {
	g, _ := all.Find("othello")
	ev, _ := games.FindEvaluator(g, "full")
	e, err := thinker.New(g, ev, ev.Defaults(), thinker.Options{TableMiB: 1, Limits: engine.Limits{Depth: 1}})
	if err != nil {
		t.Fatal(err)
	}
	l := protocoltest.Start(t, func(ctx context.Context, r io.Reader, w io.Writer) error { return Serve(ctx, r, w, e) })
	l.Send("set lmr-base 80", "set selective 1", "set time-horizon 30", "set lmr-base 999", "set lmr-base", "set bogus 1", "ping 1")
	line, seen := l.Await("pong 1", 10*time.Second)
	got := append(seen, line)
	want := []string{"status error: set lmr-base: engine: bad search parameter: lmr-base = 999", "status error: set lmr-base needs one whole number from 0 to 300",
		"status error: set bogus: unknown setting (depth, game, contempt) or engine parameter (selective, ", "pong 1"}
	if len(got) != len(want) {
		t.Fatalf("got\n%s", strings.Join(got, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("line %d: %q, want %q...", i+1, got[i], w)
		}
	}
	l.Send("quit")
	l.Wait(time.Second)
	values := map[string]int{}
	for _, p := range e.Params() {
		values[p.Name] = p.Value
	}
	if values["lmr-base"] != 80 || values["selective"] != 1 || values["time-horizon"] != 30 {
		t.Errorf("after the sets: %v", values)
	}
}
