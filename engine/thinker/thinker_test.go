package thinker_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

func newThinker(t *testing.T, game string, o thinker.Options) *thinker.Thinker {
	t.Helper()
	g, err := all.Find(game)
	if err != nil {
		t.Fatal(err)
	}
	ev := g.Evaluators()[0]
	th, err := thinker.New(g, ev, ev.Defaults(), o)
	if err != nil {
		t.Fatal(err)
	}
	return th
}

// TestThinkLimits: what a GUI asks for becomes the engine's limits, the
// time and the hold, as the reports show: a depth limit is the depth of the
// report, no limit at all the default depth.
func TestThinkLimits(t *testing.T) {
	th := newThinker(t, "tictactoe", thinker.Options{TableMiB: 1, Limits: engine.Limits{Depth: 2}})
	p := th.Game().Start()
	depth := func(lim games.ThinkLimits) int {
		t.Helper()
		var got games.Thought
		if err := th.Think(context.Background(), p, lim, func(r games.Thought) { got = r }); err != nil {
			t.Fatal(err)
		}
		th.Wait()
		return got.Depth
	}
	if d := depth(games.ThinkLimits{}); d != 2 {
		t.Errorf("no limit: depth %d, want the default 2", d)
	}
	if d := depth(games.ThinkLimits{Depth: 3}); d != 3 {
		t.Errorf("depth 3: depth %d", d)
	}
	if err := th.SetDepth(1); err != nil {
		t.Fatal(err)
	}
	if d := depth(games.ThinkLimits{}); d != 1 {
		t.Errorf("after SetDepth(1): depth %d", d)
	}
	if err := th.SetDepth(engine.MaxDepth + 1); err == nil {
		t.Error("SetDepth beyond MaxDepth accepted")
	}
	// A clock: tic-tac-toe is solved long before the time is up (a third
	// of a second, ample on a loaded machine).
	if d := depth(games.ThinkLimits{Clock: true, Left: 10 * time.Second}); d < 9 {
		t.Errorf("on a clock: depth %d, want the whole game", d)
	}
}

// TestThinkStop: an infinite search reports only after Stop, Settle refuses
// a command meanwhile, and the report carries a legal move.
func TestThinkStop(t *testing.T) {
	th := newThinker(t, "chess", thinker.Options{TableMiB: 1})
	p := th.Game().Start()
	reported := make(chan games.Thought, 1)
	if err := th.Think(context.Background(), p, games.ThinkLimits{Infinite: true, Depth: 1}, func(r games.Thought) { reported <- r }); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	select {
	case r := <-reported:
		t.Fatalf("an infinite search reported before Stop: %+v", r)
	default:
	}
	if err := th.Settle(); !errors.Is(err, thinker.ErrSearching) {
		t.Fatalf("Settle during an infinite search: %v", err)
	}
	th.Stop()
	r := <-reported
	if _, err := p.ParseMove(p.FormatMove(r.Move)); err != nil || r.Position == p {
		t.Errorf("report %+v: %v (the position must be the thinker's copy)", r, err)
	}
	if err := th.Settle(); err != nil {
		t.Errorf("Settle after Stop: %v", err)
	}
}

// TestThinkGameOver: a finished game is not searched; a draw by repetition
// with moves left is searched from its position.
func TestThinkGameOver(t *testing.T) {
	th := newThinker(t, "tictactoe", thinker.Options{TableMiB: 1})
	over, _ := th.Game().ParsePosition("xxxoo----")
	if err := th.Think(context.Background(), over, games.ThinkLimits{}, func(games.Thought) {}); err == nil {
		t.Error("a finished game was searched")
	}
	ch := newThinker(t, "chess", thinker.Options{TableMiB: 1})
	p := ch.Game().Start()
	for range 2 {
		for _, s := range []string{"Nf3", "Nf6", "Ng1", "Ng8"} {
			m, _ := p.ParseMove(s)
			p.Play(m)
		}
	}
	if _, o := p.Moves(nil); o != games.Draw {
		t.Skipf("chess does not end the game on a repetition here (%v)", o)
	}
	var got games.Thought
	if err := ch.Think(context.Background(), p, games.ThinkLimits{Depth: 1}, func(r games.Thought) { got = r }); err != nil {
		t.Fatal(err)
	}
	ch.Wait()
	if got.Position.Ply() != 0 {
		t.Errorf("the repetition was searched with its history (ply %d)", got.Position.Ply())
	}
}

// TestReport: a forced end is EndPlies, positive when the side to move
// wins.
func TestReport(t *testing.T) {
	p := newThinker(t, "tictactoe", thinker.Options{}).Game().Start()
	for _, c := range []struct{ score, plies int }{{engine.Mate - 3, 3}, {-(engine.Mate - 4), -4}, {120, 0}, {-7, 0}} {
		r := thinker.Report(p, engine.Result{Score: c.score}, time.Second)
		if r.EndPlies != c.plies || r.Score != c.score {
			t.Errorf("score %d: EndPlies %d, want %d", c.score, r.EndPlies, c.plies)
		}
	}
}

// TestTableSize: the table size a GUI asks for is at most a quarter of
// the memory, and at most the largest offered.
func TestTableSize(t *testing.T) {
	th := newThinker(t, "nim", thinker.Options{TableMiB: 1, Memory: 32 << 20})
	if err := th.SetTableMiB(9); err == nil || !strings.Contains(err.Error(), "hash 9: more than a quarter of this machine's 32 MiB") {
		t.Errorf("SetTableMiB(9): %v", err)
	}
	if size, max := th.TableMiB(); size != 1 || max != 8 {
		t.Errorf("TableMiB %d %d", size, max)
	}
	th = newThinker(t, "nim", thinker.Options{TableMiB: 1, MaxTableMiB: 8})
	if err := th.SetTableMiB(9); err == nil || err.Error() != "hash 9: want 1 to 8 MiB" {
		t.Errorf("SetTableMiB(9): %v", err)
	}
	if err := th.SetTableMiB(2); err != nil {
		t.Fatal(err)
	}
	if size, max := th.TableMiB(); size != 2 || max != 8 {
		t.Errorf("TableMiB %d %d", size, max)
	}
	if err := newThinker(t, "nim", thinker.Options{TableMiB: 1}).SetTableMiB(0); err == nil {
		t.Error("a table of 0 MiB accepted")
	}
}
