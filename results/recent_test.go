package results

import "testing"

// TestLastGames: the last games come back latest first, equal to the
// records Game reads, and n bounds the count.
func TestLastGames(t *testing.T) {
	r, _ := recordedRun(t)
	defer r.Close()
	in, err := r.Info()
	if err != nil {
		t.Fatal(err)
	}
	all, err := r.LastGames(in.Games + 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != in.Games {
		t.Fatalf("LastGames returned %d games, the run has %d", len(all), in.Games)
	}
	last, err := r.LastGames(3)
	if err != nil {
		t.Fatal(err)
	}
	if len(last) != 3 {
		t.Fatalf("LastGames(3) returned %d games", len(last))
	}
	for i, g := range last {
		want, ok, err := r.Game(g.Key)
		if err != nil || !ok {
			t.Fatalf("game %v: %v %v", g.Key, ok, err)
		}
		if g.Record.Outcome != want.Record.Outcome || len(g.Record.Moves) != len(want.Record.Moves) || g.First != want.First {
			t.Errorf("game %d (%v) differs from Game's record", i, g.Key)
		}
		if g.Key != all[i].Key {
			t.Errorf("game %d is %v, LastGames(all) has %v", i, g.Key, all[i].Key)
		}
	}
	if none, err := r.LastGames(0); err != nil || len(none) != 0 {
		t.Errorf("LastGames(0) = %d games, %v", len(none), err)
	}
}
