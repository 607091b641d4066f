package thinker_test

import (
	"context"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
)

// TestThinkEach: a search reports each depth it completes, in order, with
// the nodes so far, and ends at the depth asked with the same move as its
// last iteration; a node limit bounds the nodes of all the depths together.
func TestThinkEach(t *testing.T) {
	th := newThinker(t, "chess", thinker.Options{TableMiB: 1})
	p := th.Game().Start()
	var its []games.Thought
	var end games.Thought
	if err := th.ThinkEach(context.Background(), p, games.ThinkLimits{Depth: 4}, func(r games.Thought) { its = append(its, r) },
		func(r games.Thought) { end = r }); err != nil {
		t.Fatal(err)
	}
	th.Wait()
	if len(its) != 4 {
		t.Fatalf("%d iterations reported, want 4", len(its))
	}
	for i, it := range its {
		if it.Depth != i+1 || len(it.PV) == 0 || it.PV[0] != it.Move || (i > 0 && it.Nodes <= its[i-1].Nodes) {
			t.Errorf("iteration %d: depth %d, %d nodes, pv %v", i+1, it.Depth, it.Nodes, it.PV)
		}
	}
	if end.Depth != 4 || end.Move != its[3].Move || end.Nodes != its[3].Nodes {
		t.Errorf("end: depth %d move %v nodes %d; last iteration: move %v nodes %d", end.Depth, end.Move, end.Nodes, its[3].Move, its[3].Nodes)
	}
	if err := th.ThinkEach(context.Background(), p, games.ThinkLimits{Nodes: 3000}, func(games.Thought) {}, func(r games.Thought) { end = r }); err != nil {
		t.Fatal(err)
	}
	th.Wait()
	if end.Nodes > 3000 || end.Depth < 1 {
		t.Errorf("nodes 3000: %d nodes, depth %d", end.Nodes, end.Depth)
	}
}

// TestBusy: Busy is a channel while a search runs and nil once it ended;
// Held tells a search that waits for Stop.
func TestBusy(t *testing.T) {
	th := newThinker(t, "chess", thinker.Options{TableMiB: 1})
	if th.Busy() != nil || th.Held() {
		t.Fatal("busy before any search")
	}
	p := th.Game().Start()
	if err := th.Think(context.Background(), p, games.ThinkLimits{Depth: engine.MaxDepth}, func(games.Thought) {}); err != nil {
		t.Fatal(err)
	}
	done := th.Busy()
	if done == nil || th.Held() {
		t.Fatal("not busy during a search, or held")
	}
	th.Stop()
	if th.Busy() != nil {
		t.Error("busy after Stop")
	}
	if err := th.Think(context.Background(), p, games.ThinkLimits{Depth: 1}, func(games.Thought) {}); err != nil {
		t.Fatal(err)
	}
	if done := th.Busy(); done != nil {
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("a depth-1 search did not end")
		}
	}
	if th.Busy() != nil {
		t.Error("busy after the search ended")
	}
	if err := th.Think(context.Background(), p, games.ThinkLimits{Depth: 1, Infinite: true}, func(games.Thought) {}); err != nil {
		t.Fatal(err)
	}
	if !th.Held() {
		t.Error("an infinite search is not held")
	}
	th.Stop()
}

// TestMoveOverhead: the overhead is checked (0 to 5000 ms, whole ms).
func TestMoveOverhead(t *testing.T) {
	th := newThinker(t, "chess", thinker.Options{TableMiB: 1})
	if th.MoveOverhead() != thinker.DefaultMoveOverhead {
		t.Errorf("default %v", th.MoveOverhead())
	}
	for _, bad := range []time.Duration{-time.Millisecond, 5001 * time.Millisecond, 1500 * time.Microsecond} {
		if err := th.SetMoveOverhead(bad); err == nil {
			t.Errorf("SetMoveOverhead(%v) accepted", bad)
		}
	}
	if err := th.SetMoveOverhead(5 * time.Second); err != nil || th.MoveOverhead() != 5*time.Second {
		t.Errorf("SetMoveOverhead(5s): %v, %v", err, th.MoveOverhead())
	}
}
