package tournament

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament/stats"
)

// strengthRunner plays a tiny deterministic game: the player with the
// greater first weight (its strength) wins, equal strengths draw. It
// checks that the games come with the openings expected.
type strengthRunner struct {
	played []GameSpec
	stopAt int // cancel after this many games; 0 never
	cancel context.CancelFunc
}

func (s *strengthRunner) Run(ctx context.Context, specs []GameSpec, done func(i int, r Record) error) error {
	for i, sp := range specs {
		if err := ctx.Err(); err != nil {
			return err
		}
		r := Record{Outcome: games.Draw, Opening: sp.Opening}
		switch a, b := sp.First.Weights[0], sp.Second.Weights[0]; {
		case a > b:
			r.Outcome = games.FirstWins
		case a < b:
			r.Outcome = games.SecondWins
		}
		s.played = append(s.played, sp)
		if err := done(i, r); err != nil {
			return err
		}
		if s.stopAt > 0 && len(s.played) == s.stopAt {
			s.cancel()
		}
	}
	return ctx.Err()
}

func strengthPlayers(strengths ...float64) []Player {
	names := []string{"A", "B", "C", "D", "E"}
	out := make([]Player, len(strengths))
	for i, s := range strengths {
		out[i] = Player{Name: names[i], Weights: []float64{s}}
	}
	return out
}

type want struct {
	name    string
	w, d, l int
}

func checkStandings(t *testing.T, got []Standing, wants []want) {
	t.Helper()
	if len(got) != len(wants) {
		t.Fatalf("%d standings, want %d: %+v", len(got), len(wants), got)
	}
	for i, w := range wants {
		s := got[i]
		r := stats.WDL{Wins: w.w, Draws: w.d, Losses: w.l}
		if s.Name != w.name || s.Record != r || s.Points != r.Points() || s.Score != r.Score() || s.Elo != r.EloEstimate() {
			t.Errorf("rank %d: %+v, want %s %d-%d-%d", i+1, s, w.name, w.w, w.d, w.l)
		}
	}
}

// TestRoundRobinKnownAnswer: strengths A=2, B=3, C=1, D=2, one pair per
// pairing. B wins all six games; A and D draw each other, beat C and lose
// to B (2-2-2, 3 points each, A first by player order); C loses all six.
func TestRoundRobinKnownAnswer(t *testing.T) {
	g, _ := all.Find("tictactoe")
	run := &strengthRunner{}
	var calls []int
	opts := Options{Game: g, Pairs: 1, Openings: []string{"x", "y"}, OnGame: func(done, total int, _ GameSpec, _ Record) error {
		if total != 12 {
			t.Errorf("total %d, want 12", total)
		}
		calls = append(calls, done)
		return nil
	}}
	st, err := RoundRobin(context.Background(), run, strengthPlayers(2, 3, 1, 2), opts)
	if err != nil {
		t.Fatal(err)
	}
	checkStandings(t, st, []want{{"B", 6, 0, 0}, {"A", 2, 2, 2}, {"D", 2, 2, 2}, {"C", 0, 0, 6}})
	if st[0].Player != 1 || st[1].Player != 0 || st[2].Player != 3 || st[3].Player != 2 {
		t.Errorf("player indices %+v", st)
	}
	if len(calls) != 12 || calls[11] != 12 {
		t.Errorf("OnGame calls %v", calls)
	}
	// Colours swap within each pair; every pair starts from opening 0.
	for i, sp := range run.played {
		if sp.Opening != "x" {
			t.Errorf("game %d from %q", i, sp.Opening)
		}
		if i%2 == 1 && (sp.First.Name != run.played[i-1].Second.Name || sp.Second.Name != run.played[i-1].First.Name) {
			t.Errorf("game %d does not swap colours", i)
		}
	}
}

// TestGauntletKnownAnswer: A=2 meets B=3, C=1 and D=2 over two pairs each:
// A 4-4-4 (6 points), B 4-0-0, D 0-4-0, C 0-0-4.
func TestGauntletKnownAnswer(t *testing.T) {
	g, _ := all.Find("tictactoe")
	st, err := Gauntlet(context.Background(), &strengthRunner{}, strengthPlayers(2, 3, 1, 2), Options{Game: g, Pairs: 2})
	if err != nil {
		t.Fatal(err)
	}
	checkStandings(t, st, []want{{"A", 4, 4, 4}, {"B", 4, 0, 0}, {"D", 0, 4, 0}, {"C", 0, 0, 4}})
}

// TestKnockoutTournamentKnownAnswer: A=2, B=3, C=1 in a bracket of four,
// best of 3: A has a bye, B beats C 3-0, then B beats A 3-0.
func TestKnockoutTournamentKnownAnswer(t *testing.T) {
	g, _ := all.Find("tictactoe")
	run := &strengthRunner{}
	res, st, err := KnockoutTournament(context.Background(), run, strengthPlayers(2, 3, 1), BracketOptions{BestOf: 3}, Options{Game: g, Openings: []string{"x", "y"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Winner != 1 || len(res.Matches) != 3 {
		t.Fatalf("winner %d, matches %+v", res.Winner, res.Matches)
	}
	wantMatches := []BracketMatch{
		{Round: 0, A: 0, B: Bye, Winner: 0},
		{Round: 0, A: 1, B: 2, ScoreA: 3, ScoreB: 0, Games: 3, Winner: 1},
		{Round: 1, A: 0, B: 1, ScoreA: 0, ScoreB: 3, Games: 3, Winner: 1},
	}
	if !reflect.DeepEqual(res.Matches, wantMatches) {
		t.Errorf("matches %+v", res.Matches)
	}
	checkStandings(t, st, []want{{"B", 6, 0, 0}, {"A", 0, 0, 3}, {"C", 0, 0, 3}})
	// Games 0 and 1 of a match are pair 0 (opening x), game 2 pair 1 (y);
	// game 1 swaps colours.
	for i, sp := range run.played {
		if op := []string{"x", "x", "y"}[i%3]; sp.Opening != op {
			t.Errorf("game %d from %q, want %q", i, sp.Opening, op)
		}
	}
	if run.played[1].First.Name != "C" || run.played[0].First.Name != "B" {
		t.Errorf("colours: %s then %s first", run.played[0].First.Name, run.played[1].First.Name)
	}
}

// TestFormatsInterrupted: a cancelled round robin returns the standings of
// the games finished with the context's error.
func TestFormatsInterrupted(t *testing.T) {
	g, _ := all.Find("tictactoe")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	run := &strengthRunner{stopAt: 3, cancel: cancel}
	st, err := RoundRobin(ctx, run, strengthPlayers(2, 3, 1), Options{Game: g, Pairs: 1})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	games := 0
	for _, s := range st {
		games += s.Record.Games()
	}
	if games != 2*3 {
		t.Fatalf("%d player-games recorded, want 6: %+v", games, st)
	}
	if _, err := RoundRobin(context.Background(), run, strengthPlayers(2), Options{Game: g, Pairs: 1}); err == nil {
		t.Error("one player accepted")
	}
	if _, err := Gauntlet(context.Background(), run, strengthPlayers(2, 1), Options{Game: g}); err == nil {
		t.Error("0 pairs accepted")
	}
}

// TestRoundRobinOnPool: the real pool and engine, 1 and 2 workers, give
// the same standings, and every pairing's games add up.
func TestRoundRobinOnPool(t *testing.T) {
	g, _ := all.Find("tictactoe")
	players := []Player{player(t, "tictactoe", "a", 1), player(t, "tictactoe", "b", 3), player(t, "tictactoe", "c", 9)}
	var got [2][]Standing
	for i, workers := range []int{1, 2} {
		pool, err := NewPool(workers, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got[i], err = RoundRobin(context.Background(), pool, players, Options{Game: g, Pairs: 2}); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(got[0], got[1]) {
		t.Fatalf("1 worker %+v, 2 workers %+v", got[0], got[1])
	}
	points := 0.0
	for _, s := range got[0] {
		if s.Record.Games() != 8 {
			t.Errorf("%s played %d games, want 8", s.Name, s.Record.Games())
		}
		points += s.Points
	}
	if points != 12 {
		t.Errorf("%g points handed out, want 12", points)
	}
}
