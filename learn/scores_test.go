package learn

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/chess"
	"github.com/gametune/gametune/tournament"
)

// TestRecordScores: a record's scores land on its moves after the opening,
// NoScore on the opening's plies and on a move its mover did not score;
// a record without any score gives none.
func TestRecordScores(t *testing.T) {
	r := tournament.Record{Moves: []string{"a", "b", "c"}, Evals: []tournament.MoveEval{
		{Score: 35, Scored: true}, {}, {Score: -2 * MaxScore, Scored: true}}}
	got := recordScores(2, r)
	want := []int32{NoScore, NoScore, 35, NoScore, -MaxScore}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("scores %v, want %v", got, want)
	}
	r.Evals = []tournament.MoveEval{{}, {}, {}}
	if got := recordScores(2, r); got != nil {
		t.Errorf("a record without scores gave %v", got)
	}
}

// TestSelfPlayScores: a chess self-play game carries the movers' scores,
// none on its random opening and one on every move after it; its first
// searched position scores what a fresh search at the same depth finds.
func TestSelfPlayScores(t *testing.T) {
	g := findGame(t, "chess")
	p := builtin(t, g, "textbook", 2)
	gs, err := SelfPlay(context.Background(), newPool(t, 2), g, p, SelfPlayOptions{Games: 4, Seed: 3, MaxPlies: 60})
	if err != nil {
		t.Fatal(err)
	}
	s, err := engine.New(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, game := range gs {
		first := 0
		for first < len(game.Scores) && game.Scores[first] == NoScore {
			first++
		}
		if len(game.Scores) != len(game.Moves) || first < DefaultMinOpening || first > DefaultMaxOpening {
			t.Fatalf("game %d: %d scores for %d moves, the first after %d plies", i, len(game.Scores), len(game.Moves), first)
		}
		for ply := first; ply < len(game.Scores); ply++ {
			if game.Scores[ply] == NoScore {
				t.Errorf("game %d: move %d has no score", i, ply+1)
			}
		}
		pos := g.Start()
		for _, m := range game.Moves[:first] {
			pos.Play(m)
		}
		res, err := s.Search(context.Background(), pos, p.Evaluator, p.Weights, p.Limits)
		if err != nil {
			t.Fatal(err)
		}
		if int32(res.Score) != game.Scores[first] {
			t.Errorf("game %d, move %d: self-play scored %d, a search at depth 2 %d", i, first+1, game.Scores[first], res.Score)
		}
		s.NewGame()
	}
}

// TestFitBlendsScores: with Set.Lambda, a position's label is (1-Lambda)
// times its result plus Lambda times sigmoid(K*score), K being the one
// fitted on the results alone, both seen from the quiescence leaf's side
// to move (an odd capture line turns the result and the score's sign); a
// position without a score keeps its result.
func TestFitBlendsScores(t *testing.T) {
	g := chess.Game()
	ev, w := emptyTables(t, g, "pst")
	set := randomGames(g, 30, 80, 11)
	rng := rand.New(rand.NewPCG(4, 4))
	for i := range set.Games {
		game := &set.Games[i]
		game.Scores = make([]int32, len(game.Moves))
		for ply := range game.Scores {
			game.Scores[ply] = int32(rng.IntN(1201) - 600)
			if ply%7 == 0 {
				game.Scores[ply] = NoScore
			}
		}
	}
	opts := FitOptions{Workers: 1, HeldOut: -1, Epochs: 1}
	plain, err := Fit(context.Background(), ev, w, set, opts)
	if err != nil {
		t.Fatal(err)
	}
	const lambda = 0.25
	blended := *set
	blended.Lambda = lambda
	f, err := newFitter(ev, w, &blended, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	if f.scoreK != plain.K {
		t.Fatalf("the scores' K is %v, want the K of the results alone, %v", f.scoreK, plain.K)
	}
	// Random games say little of their results (K is tiny): the labels are
	// checked at a K that makes the scores count.
	const k = 0.004
	opts.K = k
	if f, err = newFitter(ev, w, &blended, opts); err != nil {
		t.Fatal(err)
	}
	if err := f.prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	s, err := engine.New(engine.Options{TableMiB: 1})
	if err != nil {
		t.Fatal(err)
	}
	var leaf []games.Move
	n, turned, scored := 0, 0, 0
	for gi := range set.Games {
		st := &positions{perTerm: true}
		if err := f.replay(f.workers[0], gi, st); err != nil {
			t.Fatal(err)
		}
		i := 0
		err = set.Each(gi, gi+1, func(p games.Position, label, score float64) error {
			leaf, _ = s.QuietLeaf(p, ev, w, leaf[:0])
			want := label
			if len(leaf)%2 == 1 {
				want, score, turned = 1-label, -score, turned+1
			}
			if score == score {
				want, scored = (1-lambda)*want+lambda*sigmoid(k*score), scored+1
			}
			if got := st.labels[i]; got != float32(want) {
				t.Fatalf("game %d, position %d: label %v, want %v", gi, i, got, float32(want))
			}
			i++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		n += i
	}
	if turned == 0 || scored == 0 || scored == n {
		t.Fatalf("%d positions, %d turned, %d scored: the test shows too little", n, turned, scored)
	}
	t.Logf("%d positions, %d with a score, %d fitted at a leaf of the other side to move", n, scored, turned)
}
