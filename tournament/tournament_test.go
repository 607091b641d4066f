package tournament

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

func player(t testing.TB, game, name string, depth int) Player {
	t.Helper()
	g, err := all.Find(game)
	if err != nil {
		t.Fatal(err)
	}
	ev := g.Evaluators()[0]
	return Player{Name: name, Evaluator: ev, Weights: ev.Defaults(), Limits: engine.Limits{Depth: depth}}
}

// othelloSpecs is a match of colour-swapped pairs from random openings.
func othelloSpecs(t testing.TB, pairs, depth int) []GameSpec {
	t.Helper()
	g, _ := all.Find("othello")
	openings, err := RandomOpenings(context.Background(), g, "random:6", 1)
	if err != nil {
		t.Fatal(err)
	}
	a := player(t, "othello", "a", depth)
	b := player(t, "othello", "b", depth)
	b.Weights = []float64{0.5, 1.5, 1, 2}
	var specs []GameSpec
	for i := 0; i < pairs; i++ {
		op := openings[i%len(openings)]
		specs = append(specs, GameSpec{Game: g, Opening: op, First: a, Second: b}, GameSpec{Game: g, Opening: op, First: b, Second: a})
	}
	return specs
}

func playAll(t testing.TB, workers int, specs []GameSpec) []Record {
	t.Helper()
	pool, err := NewPool(workers, 4)
	if err != nil {
		t.Fatal(err)
	}
	recs := make([]Record, 0, len(specs))
	next := 0
	err = pool.Run(context.Background(), specs, func(i int, r Record) error {
		if i != next {
			t.Fatalf("game %d delivered before game %d", i, next)
		}
		next++
		r.Duration = 0 // with the moves' times, what depends on the machine
		for i := range r.Evals {
			r.Evals[i].Time = 0
		}
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestWorkersGiveIdenticalRecords: the same games with 1 and 2 workers give
// identical records, game by game.
func TestWorkersGiveIdenticalRecords(t *testing.T) {
	specs := othelloSpecs(t, 6, 3)
	one, two := playAll(t, 1, specs), playAll(t, 2, specs)
	if !reflect.DeepEqual(one, two) {
		t.Fatal("records differ between 1 and 2 workers")
	}
	if len(one) != 12 || one[0].Plies == 0 || len(one[0].Moves) != one[0].Plies {
		t.Fatalf("records look wrong: %d, %+v", len(one), one[0])
	}
}

// BenchmarkGamesPerSecond plays Othello at depth 4 with 1 and 2 workers.
func BenchmarkGamesPerSecond(b *testing.B) {
	specs := othelloSpecs(b, 32, 4)
	for _, w := range []int{1, 2} {
		b.Run(map[int]string{1: "workers=1", 2: "workers=2"}[w], func(b *testing.B) {
			pool, _ := NewPool(w, 1)
			games := 0
			for b.Loop() {
				pool.Run(context.Background(), specs, func(int, Record) error { games++; return nil })
			}
			b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
		})
	}
}

// TestCancelKeepsFinishedGames: cancelling as the first game is delivered
// ends Run with context.Canceled, having delivered the games already
// finished and not the rest. The cancel comes from the callback, not a
// timer, so the test holds on a loaded machine and a fast one alike.
func TestCancelKeepsFinishedGames(t *testing.T) {
	specs := othelloSpecs(t, 40, 5)
	pool, _ := NewPool(2, 4)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := 0
	err := pool.Run(ctx, specs, func(i int, r Record) error {
		if i != done || r.Plies == 0 {
			t.Errorf("game %d delivered as number %d with %d plies", i, done, r.Plies)
		}
		done++
		if done == 1 {
			cancel()
		}
		return nil
	})
	if err != context.Canceled {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if done == 0 || done > len(specs)/2 {
		t.Fatalf("%d of %d games delivered after cancelling at the first", done, len(specs))
	}
}

// TestKnockoutBracket: 5 entrants make a bracket of 8 with byes for seeds
// 0, 1 and 2; entrant i beats entrant j when i < j, so entrant 0 wins.
func TestKnockoutBracket(t *testing.T) {
	strongerWins := func(ctx context.Context, batch []BracketGame) ([]float64, error) {
		s := make([]float64, len(batch))
		for i, g := range batch {
			if g.A < g.B {
				s[i] = 1
			}
		}
		return s, nil
	}
	w, matches, err := Knockout(context.Background(), 5, BracketOptions{BestOf: 3}, strongerWins)
	if err != nil || w != 0 {
		t.Fatalf("winner %d, %v", w, err)
	}
	byes := 0
	for _, m := range matches {
		if m.B == Bye {
			byes++
			if m.A > 2 || m.Round != 0 {
				t.Errorf("bye %+v", m)
			}
		} else if m.Games != 3 || m.Winner != min(m.A, m.B) {
			t.Errorf("match %+v", m)
		}
	}
	if byes != 3 || len(matches) != 7 {
		t.Fatalf("%d byes, %d matches: %+v", byes, len(matches), matches)
	}
	if got := SeedOrder(8); !reflect.DeepEqual(got, []int{0, 7, 3, 4, 1, 6, 2, 5}) {
		t.Fatalf("SeedOrder(8) = %v", got)
	}
}

// TestKnockoutTies: every game drawn. With ties "random" the winner is a
// seeded coin (same seed, same bracket); with "extra" the extra pairs are
// played (MaxExtraPairs of them) before the coin decides.
func TestKnockoutTies(t *testing.T) {
	draws := func(ctx context.Context, batch []BracketGame) ([]float64, error) {
		s := make([]float64, len(batch))
		for i := range s {
			s[i] = 0.5
		}
		return s, nil
	}
	w1, m1, _ := Knockout(context.Background(), 4, BracketOptions{BestOf: 2, Seed: 9}, draws)
	w2, m2, _ := Knockout(context.Background(), 4, BracketOptions{BestOf: 2, Seed: 9}, draws)
	if w1 != w2 || !reflect.DeepEqual(m1, m2) {
		t.Fatal("the same seed gave another bracket")
	}
	for _, m := range m1 {
		if m.TieBreak != "random" || m.Games != 2 {
			t.Errorf("random tie: %+v", m)
		}
	}
	winners := map[int]bool{}
	for seed := uint64(0); seed < 20; seed++ {
		w, _, _ := Knockout(context.Background(), 4, BracketOptions{BestOf: 2, Seed: seed}, draws)
		winners[w] = true
	}
	if len(winners) < 3 {
		t.Errorf("20 seeds crowned only %v", winners)
	}
	_, m3, _ := Knockout(context.Background(), 2, BracketOptions{BestOf: 2, Ties: "extra", MaxExtraPairs: 3}, draws)
	if m3[0].Games != 2+2*3 || m3[0].TieBreak != "random" {
		t.Errorf("extra pairs then coin: %+v", m3[0])
	}
	// Extra pairs that break the tie: A wins every extra game.
	extraWins := func(ctx context.Context, batch []BracketGame) ([]float64, error) {
		s := make([]float64, len(batch))
		for i, g := range batch {
			s[i] = 0.5
			if g.Game >= 2 {
				s[i] = 1
			}
		}
		return s, nil
	}
	w, m4, _ := Knockout(context.Background(), 2, BracketOptions{BestOf: 2, Ties: "extra"}, extraWins)
	if w != 0 || m4[0].Games != 4 || m4[0].TieBreak != "extra" {
		t.Errorf("extra pair: winner %d, %+v", w, m4[0])
	}
}

func TestAdjudication(t *testing.T) {
	g, _ := all.Find("othello")
	s, _ := NewSearchers(1)
	p := player(t, "othello", "p", 2)
	rec, err := Play(context.Background(), s, GameSpec{Game: g, First: p, Second: p, Adjudication: Adjudication{DrawAfter: 2, DrawMargin: 1 << 20, DrawPlies: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Reason != ByAdjudication || rec.Outcome != games.Draw || rec.Plies != 6 {
		t.Fatalf("draw adjudication: %+v", rec)
	}
	rec, _ = Play(context.Background(), s, GameSpec{Game: g, First: p, Second: p, MaxPlies: 10})
	if rec.Reason != ByPlyCap || rec.Outcome != games.Draw || rec.Plies != 10 {
		t.Fatalf("ply cap: %+v", rec)
	}
	rec, _ = Play(context.Background(), s, GameSpec{Game: g, First: p, Second: p})
	if rec.Reason != ByRule || rec.Outcome == games.Ongoing {
		t.Fatalf("whole game: %+v", rec)
	}
}

func TestOpenings(t *testing.T) {
	g, _ := all.Find("tictactoe")
	dir := t.TempDir()
	path := filepath.Join(dir, "openings.txt")
	os.WriteFile(path, []byte("# comment\nx--------\n\nmoves: b2 a1\n"), 0o644)
	list, err := ReadOpenings(path, g)
	if err != nil || !reflect.DeepEqual(list, []string{"x--------", "o---x----"}) {
		t.Fatalf("%v %v", list, err)
	}
	for content, want := range map[string]string{
		"x--------\nzzz\n":                      ":2: tictactoe",
		"moves: b2 b2\n":                        ":1: tictactoe: cell b2 is taken",
		"xxxoo----\n":                           ":1: the game is already over",
		"x--------\nmoves: a1 b1 a2 b2 a3 c3\n": ":2: move 6 (c3): the game is already over",
		"# only a comment\n\n":                  "holds no opening",
	} {
		os.WriteFile(path, []byte(content), 0o644)
		if _, err := ReadOpenings(path, g); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", content, err, want)
		}
	}
	if _, err := ReadOpenings(filepath.Join(dir, "missing"), g); err == nil {
		t.Error("missing file accepted")
	}
	a, err := RandomOpenings(context.Background(), g, "random:2", 3)
	if err != nil || len(a) == 0 {
		t.Fatal(err)
	}
	b, _ := RandomOpenings(context.Background(), g, "random:2", 3)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("random openings differ for one seed")
	}
	seen := map[string]bool{}
	for _, p := range a {
		if seen[p] || strings.Count(p, "-") != 7 {
			t.Fatalf("bad or duplicate opening %q in %v", p, a)
		}
		seen[p] = true
	}
	for _, bad := range []string{"random:x", "random:-1", "random:99"} {
		if _, err := RandomOpenings(context.Background(), g, bad, 1); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	if _, err := RandomOpenings(context.Background(), g, "random:12", 1); err == nil || !strings.Contains(err.Error(), "lasts 12 plies") {
		t.Errorf("too long: %v", err)
	}
}

// TestLoadOpenings: an openings spec names the start, drawn openings
// (as positions, or as the moves that reach them) or a file.
func TestLoadOpenings(t *testing.T) {
	g, _ := all.Find("tictactoe")
	ctx := context.Background()
	for _, spec := range []string{"", "start"} {
		if list, err := LoadOpenings(ctx, g, spec, 1, false); list != nil || err != nil {
			t.Errorf("%q: %v %v, want none", spec, list, err)
		}
	}
	drawn, _ := RandomOpenings(ctx, g, "random:2", 3)
	if list, err := LoadOpenings(ctx, g, "random:2", 3, false); err != nil || !reflect.DeepEqual(list, drawn) {
		t.Errorf("random:2: %v %v, want %v", list, err, drawn)
	}
	moves, _ := RandomOpeningMoves(ctx, g, "random:2", 3)
	if list, err := LoadOpenings(ctx, g, "random:2", 3, true); err != nil || !reflect.DeepEqual(list, moves) || !strings.HasPrefix(list[0], "moves:") {
		t.Errorf("random:2 as moves: %v %v, want %v", list, err, moves)
	}
	path := filepath.Join(t.TempDir(), "openings.txt")
	os.WriteFile(path, []byte("x--------\n"), 0o644)
	if list, err := LoadOpenings(ctx, g, path, 1, true); err != nil || !reflect.DeepEqual(list, []string{"x--------"}) {
		t.Errorf("file: %v %v", list, err)
	}
}

// FuzzReadOpenings: reading any file never panics, and every opening it
// accepts parses as a game still going on.
func FuzzReadOpenings(f *testing.F) {
	f.Add([]byte("# comment\nx--------\n\nmoves: b2 a1\n"))
	f.Add([]byte("xxxoo----\n"))
	f.Add([]byte("moves: a1 b1 a2 b2 a3 c3\n"))
	f.Add([]byte("moves:\n---------\n"))
	g, _ := all.Find("tictactoe")
	path := filepath.Join(f.TempDir(), "openings.txt")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		list, err := ReadOpenings(path, g)
		if err != nil {
			return
		}
		for _, op := range list {
			p, err := g.ParsePosition(op)
			if err != nil {
				t.Fatalf("accepted opening %q does not parse: %v", op, err)
			}
			if _, outcome := p.Moves(nil); outcome != games.Ongoing {
				t.Fatalf("accepted opening %q is over (%s)", op, outcome)
			}
			if again, err := ParseOpening(g, op); err != nil || again != op {
				t.Fatalf("opening %q reads back as %q, %v", op, again, err)
			}
		}
	})
}

var errDiskFull = errors.New("disk full")

type failingWriter struct{ after int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.after <= 0 {
		return 0, errDiskFull
	}
	w.after--
	return len(p), nil
}

// TestRecordWriterErrors: both record writers return the writer's error,
// wrapped, and an error from RunMatch's progress stops the match.
func TestRecordWriterErrors(t *testing.T) {
	for _, name := range []string{"tictactoe", "chess"} {
		g, _ := all.Find(name)
		w := NewRecordWriter(g, &failingWriter{})
		err := w.WriteGame(g, "a", "b", Record{Opening: g.Start().String(), Outcome: games.Draw, Reason: ByRule})
		if !errors.Is(err, errDiskFull) {
			t.Errorf("%s: %v, want the writer's error", name, err)
		}
	}
	g, _ := all.Find("tictactoe")
	a, b := player(t, "tictactoe", "a", 1), player(t, "tictactoe", "b", 1)
	pool, _ := NewPool(1, 1)
	rw := NewRecordWriter(g, &failingWriter{after: 2})
	written := 0
	res, err := RunMatch(context.Background(), pool, MatchSpecs(g, a, b, 5, nil, 0, Adjudication{}), nil, func(m *MatchResult) error {
		for ; written < len(m.Records); written++ {
			if err := rw.WriteGame(g, "a", "b", m.Records[written]); err != nil {
				return err
			}
		}
		return nil
	})
	if !errors.Is(err, errDiskFull) || res.Pentanomial.Pairs() != 2 {
		t.Fatalf("match went on after a failed write: %v, %d pairs", err, res.Pentanomial.Pairs())
	}
}
