package population

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
)

// opponentConfig is a tiny Othello genetic run against the full
// evaluator's defaults searched one ply deeper than the run.
func opponentConfig() Config {
	c := Defaults()
	c.Game, c.Evaluator, c.Depth, c.Openings, c.Seed = "othello", "report", 1, "random:4", 3
	c.Population, c.Generations, c.Games, c.YardstickPairs, c.YardstickEvery, c.LadderPairs = 2, 2, 1, 1, 1, -1
	c.Opponents = Specs{"default:full,depth=2"}
	return c
}

// runPlan resolves cfg and runs it on workers into store until ctx ends.
func runPlan(ctx context.Context, t *testing.T, cfg Config, workers int, store Store) (Result, error) {
	t.Helper()
	plan, err := Resolve(context.Background(), cfg, testSources{})
	if err != nil {
		t.Fatal(err)
	}
	pool, err := tournament.NewPool(workers, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	tu, err := New(plan, pool, store)
	if err != nil {
		t.Fatal(err)
	}
	return tu.Run(ctx)
}

// games of a stage and generation in a memory store, by key.
func stageGames(s *MemoryStore, stage string, gen int) map[GameKey]GameResult {
	out := map[GameKey]GameResult{}
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, g := range s.games {
		if k.Stage == stage && k.Generation == gen {
			out[k] = g
		}
	}
	return out
}

// replay plays a recorded game again between the players it should have
// had and reports whether the moves are the same.
func replay(t *testing.T, g games.Game, rec tournament.Record, first, second tournament.Player) bool {
	t.Helper()
	s, err := tournament.NewSearchers(1)
	if err != nil {
		t.Fatal(err)
	}
	r, err := tournament.Play(context.Background(), s, tournament.GameSpec{Game: g, Opening: rec.Opening, First: first, Second: second})
	if err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(r.Moves, rec.Moves)
}

// TestOpponentGamesGenetic: each genome plays a colour-swapped pair
// against the opponent (stage opp, the opponent as OpponentID(0)), played
// by the opponent's own player (the full evaluator at depth 2, not the
// run's depth 1), and its record and fitness count those games with its
// games against the other genome: tallied here from the stored games.
func TestOpponentGamesGenetic(t *testing.T) {
	cfg := opponentConfig()
	store := NewMemoryStore()
	if _, err := runPlan(context.Background(), t, cfg, 2, store); err != nil {
		t.Fatal(err)
	}
	g, _ := all.Find("othello")
	full, _ := games.FindEvaluator(g, "full")
	opp := tournament.Player{Evaluator: full, Weights: full.Defaults(), Limits: engine.Limits{Depth: 2}}
	shallow := opp
	shallow.Limits.Depth = 1
	pop := store.Generations[0].Genomes
	weights := map[int][]float64{}
	for _, x := range pop {
		weights[x.ID] = x.Weights
	}
	opponentGames := stageGames(store, StageOpponents, 0)
	if len(opponentGames) != 4 {
		t.Fatalf("%d games against the opponent in generation 1, want a pair for each of 2 genomes", len(opponentGames))
	}
	differs := false
	tally := map[int]*stats.WDL{}
	for _, x := range pop {
		tally[x.ID] = &stats.WDL{}
	}
	for k, r := range opponentGames {
		genome, first := r.First, true
		if k.Index%2 == 1 {
			genome, first = r.Second, false
		}
		other := r.Second
		if !first {
			other = r.First
		}
		if other != OpponentID(0) || weights[genome] == nil {
			t.Fatalf("game %s: players %d and %d, want a genome and the opponent %d", k, r.First, r.Second, OpponentID(0))
		}
		me := tournament.Player{Evaluator: mustEvaluator(t, g, "report"), Weights: weights[genome], Limits: engine.Limits{Depth: 1}}
		a, b, wa, wb := me, opp, me, shallow
		if !first {
			a, b, wa, wb = opp, me, shallow, me
		}
		if !replay(t, g, r.Record, a, b) {
			t.Fatalf("game %s is not the game of genome %d against default:full at depth 2", k, genome)
		}
		differs = differs || !replay(t, g, r.Record, wa, wb)
	}
	if !differs {
		t.Fatal("no game of the opponent at depth 2 differs from one at depth 1: the replay does not check the opponent's depth")
	}
	for _, st := range []string{StageGeneration, StageOpponents} {
		for _, r := range stageGames(store, st, 0) {
			s := r.Record.Score()
			if w := tally[r.First]; w != nil {
				w.Add(s)
			}
			if w := tally[r.Second]; w != nil {
				w.Add(1 - s)
			}
		}
	}
	// By hand, from the records this seed gives: genome 0 won 2, drew 1,
	// lost 3: (2 + 0.5) / 6 + 0.01; genome 1 won 3, drew 2, lost 1: 4 / 6
	// + 0.01.
	hand := []struct {
		wdl     stats.WDL
		fitness float64
	}{{stats.WDL{Wins: 2, Draws: 1, Losses: 3}, 2.5/6 + 0.01}, {stats.WDL{Wins: 3, Draws: 2, Losses: 1}, 4.0/6 + 0.01}}
	for i, x := range pop {
		if x.WDL != hand[i].wdl || x.Fitness != hand[i].fitness {
			t.Errorf("genome %d: %+v, fitness %v; by hand %+v, %v", x.ID, x.WDL, x.Fitness, hand[i].wdl, hand[i].fitness)
		}
		want := *tally[x.ID]
		if x.WDL != want || x.Games() != 6 {
			t.Errorf("genome %d: record %+v, want %+v: 4 games against the other genome and 2 against the opponent", x.ID, x.WDL, want)
		}
		if f := want.Points()/6 + 0.01; x.Fitness != f {
			t.Errorf("genome %d: fitness %v, want %v (points per game + 0.01)", x.ID, x.Fitness, f)
		}
	}
}

func mustEvaluator(t *testing.T, g games.Game, name string) *games.Evaluator {
	t.Helper()
	ev, err := games.FindEvaluator(g, name)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// TestOpponentYardstick: the yardstick plays the best against the
// opponent too, yardstick-pairs pairs from the openings of its pairs
// against the defaults, recorded in VsOpponents.
func TestOpponentYardstick(t *testing.T) {
	cfg := opponentConfig()
	cfg.YardstickPairs = 2
	store := NewMemoryStore()
	if _, err := runPlan(context.Background(), t, cfg, 1, store); err != nil {
		t.Fatal(err)
	}
	for _, gen := range store.Generations {
		y := gen.Yardstick
		if y == nil || len(y.VsOpponents) != 1 {
			t.Fatalf("generation %d: yardstick %+v, want one with games against the opponent", gen.Index, y)
		}
		var want stats.WDL
		for i := 0; i < 4; i++ {
			r, ok, _ := store.Game(GameKey{StageYardstick, gen.Index, 8 + i})
			def, _, _ := store.Game(GameKey{StageYardstick, gen.Index, i})
			if !ok || r.Record.Opening != def.Record.Opening {
				t.Fatalf("generation %d: yardstick game %d against the opponent missing, or from another opening than the one against the defaults", gen.Index, 8+i)
			}
			me, them := r.First, r.Second
			s := r.Record.Score()
			if i%2 == 1 {
				me, them, s = r.Second, r.First, 1-s
			}
			if me != y.Genome || them != OpponentID(0) {
				t.Fatalf("yardstick game %d: players %d, %d", 8+i, r.First, r.Second)
			}
			want.Add(s)
		}
		if y.VsOpponents[0] != want {
			t.Errorf("generation %d: VsOpponents %+v, want %+v", gen.Index, y.VsOpponents[0], want)
		}
	}
}

// interruptResolved runs cfg to its end, then again interrupted after
// stop games and resumed, and returns both stores and the games held when
// the run was interrupted.
func interruptResolved(t *testing.T, cfg Config, stop int) (want, got *stopAfter, before int) {
	t.Helper()
	want = &stopAfter{MemoryStore: NewMemoryStore(), n: -1}
	if _, err := runPlan(context.Background(), t, cfg, 2, want); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got = &stopAfter{MemoryStore: NewMemoryStore(), n: stop, cancel: cancel}
	if _, err := runPlan(ctx, t, cfg, 2, got); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run returned %v", err)
	}
	before = got.Games()
	got.Played, got.n = 0, -1
	if _, err := runPlan(context.Background(), t, cfg, 1, got); err != nil {
		t.Fatal(err)
	}
	return want, got, before
}

// TestOpponentResume: genetic, SPSA, CMA-ES and Bayes runs against an opponent,
// interrupted among the opponent's games and resumed with another number
// of workers, record exactly the generations (yardsticks against the
// opponent included) of uninterrupted runs, playing no game twice.
func TestOpponentResume(t *testing.T) {
	for _, algo := range []Algo{Genetic, SPSA, CMAES, Bayes} {
		t.Run(string(algo), func(t *testing.T) {
			cfg := opponentConfig()
			cfg.Algo, cfg.SPSAIterations, cfg.SPSABlock, cfg.BayesRounds = algo, 4, 2, 3
			cfg.CMAESGenerations, cfg.CMAESPopulation, cfg.CMAESPairs = 2, 3, 1
			want, got, before := interruptResolved(t, cfg, 7)
			if !reflect.DeepEqual(got.Generations, want.Generations) {
				t.Fatalf("the resumed run differs from the uninterrupted one:\n%+v\nwant\n%+v", got.Generations, want.Generations)
			}
			if got.Games() != want.Games() || before < 7 || got.Played != want.Games()-before {
				t.Fatalf("%d games, %d held at the interruption, %d played after it; want %d, 7 or more, %d", got.Games(), before, got.Played, want.Games(), want.Games()-before)
			}
			if n := len(stageGames(want.MemoryStore, StageOpponents, 1)); n == 0 {
				t.Fatal("no game against the opponent in generation 2")
			}
			last := want.Generations[len(want.Generations)-1].Yardstick
			if last == nil || len(last.VsOpponents) != 1 || last.VsOpponents[0].Games() != 2 {
				t.Fatalf("last yardstick %+v, want a pair against the opponent", last)
			}
		})
	}
}

// TestSPSAAgainstOpponents: with opponents, both sides of an iteration
// play the opponent from the same openings and never each other.
func TestSPSAAgainstOpponents(t *testing.T) {
	cfg := opponentConfig()
	cfg.Algo, cfg.SPSAIterations, cfg.SPSABlock, cfg.OpponentPairs = SPSA, 2, 2, 2
	store := NewMemoryStore()
	if _, err := runPlan(context.Background(), t, cfg, 2, store); err != nil {
		t.Fatal(err)
	}
	if n := len(stageGames(store, StageSPSA, 0)); n != 0 {
		t.Fatalf("%d games between the sides, want none", n)
	}
	opp := stageGames(store, StageOpponents, 0)
	if len(opp) != 2*2*2*2 {
		t.Fatalf("%d games against the opponent, want 2 iterations x 2 sides x 2 pairs x 2 games", len(opp))
	}
	for i := 0; i < 2; i++ { // iteration i: plus at slot 2i, minus at 2i+1
		for k := 0; k < 2; k++ {
			plus := opp[GameKey{StageOpponents, 0, 2 * ((2*i)*2 + k)}]
			minus := opp[GameKey{StageOpponents, 0, 2 * ((2*i+1)*2 + k)}]
			if plus.First != 1+2*i || minus.First != 2+2*i || plus.Second != OpponentID(0) || minus.Second != OpponentID(0) {
				t.Fatalf("iteration %d pair %d: plus %d-%d, minus %d-%d", i, k, plus.First, plus.Second, minus.First, minus.Second)
			}
			if plus.Record.Opening != minus.Record.Opening {
				t.Fatalf("iteration %d pair %d: the sides open differently: %q, %q", i, k, plus.Record.Opening, minus.Record.Opening)
			}
		}
	}
}

// rec is a game's record with the first player's score s.
func rec(s float64) tournament.Record {
	switch s {
	case 1:
		return tournament.Record{Outcome: games.FirstWins}
	case 0:
		return tournament.Record{Outcome: games.SecondWins}
	}
	return tournament.Record{Outcome: games.Draw}
}

// TestSPSAResult: known answers of an iteration's result. Without
// opponents: the plus side's wins minus losses in its pair. With them:
// the mean over pairs of the plus side's points minus the minus side's.
func TestSPSAResult(t *testing.T) {
	var plus Genome
	// theta+ first: wins; second: draws (first player's score 0.5).
	if r := spsaResult([]tournament.Record{rec(1), rec(0.5)}, &plus, false); r != 1 || plus.WDL != (stats.WDL{Wins: 1, Draws: 1}) {
		t.Fatalf("pair between the sides: result %v, plus %+v; want 1, 1-1-0", r, plus.WDL)
	}
	plus = Genome{}
	// Two pairs each. theta+: pair 1 won twice (2 points), pair 2 a win
	// and a loss (1). theta-: pair 1 two draws (1), pair 2 lost twice (0).
	recs := []tournament.Record{rec(1), rec(0), rec(1), rec(1), rec(0.5), rec(0.5), rec(0), rec(1)}
	if r := spsaResult(recs, &plus, true); r != 1 || plus.WDL != (stats.WDL{Wins: 3, Losses: 1}) {
		t.Fatalf("against the opponents: result %v, plus %+v; want ((2-1)+(1-0))/2 = 1, 3-0-1", r, plus.WDL)
	}
}

// TestOpponentsValidate: what opponents are refused, each error saying
// what is wrong.
func TestOpponentsValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*Config)
		want string
	}{
		{"knockout", func(c *Config) { c.Algo = Knockout }, "algo knockout takes no opponents; genetic, spsa, cmaes and bayes do"},
		{"texel", func(c *Config) { c.Algo = Texel }, "algo texel takes no opponents"},
		{"twice", func(c *Config) { c.Opponents = Specs{"default", "default"} }, "opponent 2 (default) is opponent 1 again"},
		{"bad limit", func(c *Config) { c.Opponents = Specs{"default:full,depth=0"} }, "depth=0: want a whole number from 1 to"},
		{"bad engine", func(c *Config) { c.Opponents = Specs{"cmd=/bin/x,proto=xyz"} }, "opponent 1:"},
		{"pairs alone", func(c *Config) { c.Opponents, c.OpponentPairs = nil, 2 }, "opponent-pairs 2 without opponents"},
		{"too many pairs", func(c *Config) { c.OpponentPairs = MaxBestOf + 1 }, "opponent-pairs 1002: 1 to 1001"},
		{"too many", func(c *Config) {
			c.Opponents = nil
			for i := 0; i <= MaxOpponents; i++ {
				c.Opponents = append(c.Opponents, fmt.Sprintf("default,depth=%d", i+1))
			}
		}, "17 opponents: at most 16"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := opponentConfig()
			tc.set(&c)
			err := c.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// TestOpponentsResolve: the plan checks each opponent against the game
// and names the one that is wrong.
func TestOpponentsResolve(t *testing.T) {
	dir := t.TempDir()
	positions := filepath.Join(dir, "openings.txt")
	g, _ := all.Find("othello")
	os.WriteFile(positions, []byte(g.Start().String()+"\n"), 0o644)
	for _, tc := range []struct {
		name string
		set  func(*Config)
		want string
	}{
		{"evaluator", func(c *Config) { c.Opponents = Specs{"default:nosuch"} }, `opponent 1 (default:nosuch)`},
		{"file", func(c *Config) { c.Opponents = Specs{filepath.Join(dir, "none.json")} }, "none.json"},
		{"command", func(c *Config) { c.Opponents = Specs{"cmd=" + filepath.Join(dir, "none") + ",proto=gtp"} }, "give the path of an executable"},
		{"protocol", func(c *Config) { c.Opponents = Specs{"cmd=/bin/sh,proto=uci,depth=1"} }, "proto=uci plays chess, not othello"},
		{"positions for gtp", func(c *Config) {
			c.Opponents, c.Openings = Specs{"cmd=/bin/sh,proto=gtp"}, positions
		}, "is a position, which a GTP opponent cannot set up"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := opponentConfig()
			tc.set(&c)
			_, err := Resolve(context.Background(), c, testSources{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// TestOpponentWeightsRecorded: an opponent given as a weights file is read
// once, into opponent-weights; the recorded config resolves without the
// file, to the same player.
func TestOpponentWeightsRecorded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.json")
	g, _ := all.Find("othello")
	full := mustEvaluator(t, g, "full")
	w := full.Defaults()
	w[full.Index("parity")] = 0.5
	var b bytes.Buffer
	if err := games.WriteWeights(&b, g, full, w, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := opponentConfig()
	cfg.Opponents = Specs{path + ",depth=3"}
	plan, err := Resolve(context.Background(), cfg, testSources{})
	if err != nil {
		t.Fatal(err)
	}
	rec := plan.Config().OpponentWeights[path]
	if rec.Evaluator != "full" || rec.Weights["parity"] != 0.5 {
		t.Fatalf("opponent-weights %+v, want the file's full weights", plan.Config().OpponentWeights)
	}
	os.Remove(path)
	recorded, err := ParseConfig(plan.Config().Marshal())
	if err != nil {
		t.Fatal(err)
	}
	again, err := Resolve(context.Background(), recorded, testSources{})
	if err != nil {
		t.Fatalf("the recorded config needs the file: %v", err)
	}
	x, y := plan.opponents[0], again.opponents[0]
	if x.Name != y.Name || x.Evaluator.Name != y.Evaluator.Name || !reflect.DeepEqual(x.Weights, y.Weights) || x.Limits != y.Limits || x.Limits.Depth != 3 || x.Evaluator.Name != "full" || x.Weights[full.Index("parity")] != 0.5 {
		t.Fatalf("players %+v and %+v, want the same full player at depth 3", x, y)
	}
	user := recorded
	user.OpponentWeights, user.OpeningList = nil, nil
	if _, diff, err := recorded.ResumeWith(user.Marshal()); err != nil || len(diff) > 0 {
		t.Fatalf("a user's config naming the same opponents does not resume the run: %v %v", diff, err)
	}
}

// TestOpponentsInConfig: a config without opponents writes no opponent
// key (configs recorded before read and resume unchanged); opponents read
// as a list or as one string split at ';' (outside quotes), and survive
// a round trip.
func TestOpponentsInConfig(t *testing.T) {
	if data := string(smallGenetic().Marshal()); strings.Contains(data, "opponent") {
		t.Fatalf("a config without opponents writes:\n%s", data)
	}
	c := Defaults()
	err := MergeConfig(&c, []byte(`opponents: "default:full,depth=2; cmd=/usr/games/gtp-rhino,proto=gtp,arg=\"a;b\""`+"\n"))
	want := Specs{"default:full,depth=2", `cmd=/usr/games/gtp-rhino,proto=gtp,arg="a;b"`}
	if err != nil || !reflect.DeepEqual(c.Opponents, want) {
		t.Fatalf("one string: %q (%v), want %q", c.Opponents, err, want)
	}
	d := Defaults()
	if err := MergeConfig(&d, []byte("opponents:\n  - default:full,depth=2\n  - cmd=/usr/games/gtp-rhino,proto=gtp,arg=\"a;b\"\n")); err != nil || !reflect.DeepEqual(d.Opponents, want) {
		t.Fatalf("a list: %q (%v)", d.Opponents, err)
	}
	back, err := ParseConfig(d.Marshal())
	if err != nil || !reflect.DeepEqual(back.Opponents, want) {
		t.Fatalf("round trip: %q (%v)", back.Opponents, err)
	}
	if err := MergeConfig(&d, []byte("opponents: {a: b}\n")); err == nil || !strings.Contains(err.Error(), "want a list of player specs") {
		t.Fatalf("a mapping: %v", err)
	}
	if err := MergeConfig(&d, []byte("opponent-weights: {}\n")); err == nil || !strings.Contains(err.Error(), "set opponents instead") {
		t.Fatalf("the internal key in a user's config: %v", err)
	}
}

// TestGTPOpeningsAsMoves: with a GTP opponent every opening is moves from
// the start, the yardstick's and the training pool's; the pool's are
// other positions than the yardstick's. (The engine is not started.)
func TestGTPOpeningsAsMoves(t *testing.T) {
	cfg := opponentConfig()
	cfg.Opponents = Specs{"cmd=/bin/sh,proto=gtp"}
	plan, err := Resolve(context.Background(), cfg, testSources{})
	if err != nil {
		t.Fatal(err)
	}
	if !plan.movesOpenings || len(plan.openings) == 0 {
		t.Fatalf("movesOpenings %v with %d openings", plan.movesOpenings, len(plan.openings))
	}
	pool, err := tournament.NewPool(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	tu, err := New(plan, pool, NewMemoryStore())
	if err != nil {
		t.Fatal(err)
	}
	if err := tu.growPool(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	g, _ := all.Find("othello")
	yard := map[string]bool{}
	for _, op := range plan.openings {
		p, err := tournament.ParseOpening(g, op)
		if !strings.HasPrefix(op, "moves: ") || err != nil {
			t.Fatalf("yardstick opening %q (%v), want moves", op, err)
		}
		yard[p] = true
	}
	train := tu.trainingOpenings(0)
	if len(train) == 0 {
		t.Fatal("no training opening")
	}
	for _, op := range train {
		p, err := tournament.ParseOpening(g, op)
		if !strings.HasPrefix(op, "moves: ") || err != nil || yard[p] {
			t.Fatalf("training opening %q (%v): want moves to a position the yardstick does not open with", op, err)
		}
	}
	if names := plan.ExternalEngines(); len(names) != 1 || !strings.Contains(names[0], "opponent 1 (sh)") {
		t.Fatalf("external engines %q", names)
	}
}

// TestOpponentGameCounts: the games budgets count (generationGames,
// yardstickGames) are the games a run against opponents plays.
func TestOpponentGameCounts(t *testing.T) {
	for _, algo := range []Algo{Genetic, SPSA, CMAES, Bayes} {
		cfg := opponentConfig()
		cfg.Algo, cfg.Generations, cfg.SPSAIterations, cfg.SPSABlock, cfg.CMAESGenerations, cfg.BayesRounds = algo, 1, 2, 2, 1, 1
		cfg.CMAESPopulation, cfg.OpponentPairs, cfg.Opponents = 3, 2, Specs{"default:full,depth=2", "default,depth=1"}
		store := NewMemoryStore()
		if _, err := runPlan(context.Background(), t, cfg, 2, store); err != nil {
			t.Fatal(err)
		}
		played := 0
		for _, st := range []string{StageGeneration, StageSPSA, StageCMAES, StageBayes, StageOpponents} {
			played += len(stageGames(store, st, 0))
		}
		if want := cfg.generationGames(nil); played != want || want == 0 {
			t.Errorf("%s: a generation played %d games; its budget counts %d", algo, played, want)
		}
		if yard, want := len(stageGames(store, StageYardstick, 0)), cfg.yardstickGames(nil, 1); yard != want || want != 2+2*2 {
			t.Errorf("%s: the yardstick played %d games; the budget counts %d, want 6", algo, yard, want)
		}
	}
}
