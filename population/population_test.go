package population

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
)

func newTestTuner(t *testing.T, cfg Config, workers int, store Recorder, start []float64, openings []string) *Tuner {
	t.Helper()
	g, err := all.Find(cfg.Game)
	if err != nil {
		t.Fatal(err)
	}
	pool, err := tournament.NewPool(workers, 1)
	if err != nil {
		t.Fatal(err)
	}
	tu, err := NewTuner(cfg, g, openings, start, pool, store)
	if err != nil {
		t.Fatal(err)
	}
	return tu
}

func smallGenetic() Config {
	c := Defaults()
	c.Game, c.Depth, c.Openings = "tictactoe", 2, ""
	c.Population, c.Generations, c.Games, c.YardstickPairs = 8, 4, 3, 2
	return c
}

// TestWorkersDoNotMatter: the same seed and config with 1 and 2 workers
// give the identical sequence of genomes and the same best genome.
func TestWorkersDoNotMatter(t *testing.T) {
	for _, algo := range []Algo{Genetic, Knockout, SPSA, Texel, CMAES, Bayes} {
		t.Run(string(algo), func(t *testing.T) {
			cfg := smallTexel()
			cfg.Algo, cfg.Rounds, cfg.Candidates, cfg.Ties, cfg.Scale = algo, 3, 5, "extra", 1
			var runs [2]*MemoryStore
			var best [2]Genome
			for i, workers := range []int{1, 2} {
				runs[i] = NewMemoryStore()
				res, err := newTestTuner(t, cfg, workers, runs[i], nil, nil).Run(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				best[i] = res.Best
			}
			if !reflect.DeepEqual(runs[0].Generations, runs[1].Generations) {
				t.Fatal("generations differ between 1 and 2 workers")
			}
			if !reflect.DeepEqual(best[0], best[1]) {
				t.Fatalf("best genomes differ: %+v vs %+v", best[0], best[1])
			}
			if len(runs[0].Generations) != 3 && algo == Knockout || len(runs[0].Generations) != 4 && algo == Genetic {
				t.Fatalf("%d generations recorded", len(runs[0].Generations))
			}
		})
	}
}

// TestSeedMatters: another seed gives another run.
func TestSeedMatters(t *testing.T) {
	a, b := NewMemoryStore(), NewMemoryStore()
	cfg := smallGenetic()
	newTestTuner(t, cfg, 1, a, nil, nil).Run(context.Background())
	cfg.Seed = 2
	newTestTuner(t, cfg, 1, b, nil, nil).Run(context.Background())
	if reflect.DeepEqual(a.Generations[0].Genomes, b.Generations[0].Genomes) {
		t.Fatal("seeds 1 and 2 drew the same population")
	}
}

// stopAfter is a store that cancels the run after n games were recorded.
type stopAfter struct {
	*MemoryStore
	n      int
	cancel context.CancelFunc
}

func (s *stopAfter) RecordGame(r GameResult) error {
	if err := s.MemoryStore.RecordGame(r); err != nil {
		return err
	}
	if s.MemoryStore.Played == s.n {
		s.cancel()
	}
	return nil
}

// interruptAndResume runs cfg from start with 2 workers, interrupts it
// after stop games, and resumes it to its end with 1 worker; it returns
// the store and the games it held when the run was interrupted. The
// store's Played counts the games the resumed run played.
func interruptAndResume(t *testing.T, cfg Config, start []float64, stop int) (*stopAfter, int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	store := &stopAfter{MemoryStore: NewMemoryStore(), n: stop, cancel: cancel}
	_, err := newTestTuner(t, cfg, 2, store, start, nil).Run(ctx)
	cancel()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("%s: interrupted run returned %v", cfg.Algo, err)
	}
	before := store.Games()
	store.Played, store.n = 0, -1
	if _, err := newTestTuner(t, cfg, 1, store, start, nil).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return store, before
}

// TestResume: a run interrupted at several moments and resumed from its
// store ends with exactly the generations of an uninterrupted run, and
// replays no recorded game. Bayes starts from random weights: from the
// defaults of tic-tac-toe its model never finds better, and its
// champions, the defaults, make no ladder.
func TestResume(t *testing.T) {
	for _, algo := range []Algo{Genetic, Knockout, SPSA, Texel, CMAES, Bayes} {
		cfg := smallTexel()
		var start []float64
		if algo == Bayes {
			cfg, start = randomStartBayes(t)
		}
		cfg.Algo, cfg.Rounds, cfg.Candidates, cfg.Scale = algo, 3, 5, 1
		want := NewMemoryStore()
		if _, err := newTestTuner(t, cfg, 2, want, start, nil).Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		total := want.Games()
		for _, stop := range []int{1, total / 3, total / 2, total - 1} {
			store, before := interruptAndResume(t, cfg, start, stop)
			if store.Played != total-before {
				t.Errorf("%s stop %d: resumed run played %d games, want %d", algo, stop, store.Played, total-before)
			}
			if !reflect.DeepEqual(store.Generations, want.Generations) {
				t.Fatalf("%s stop %d: resumed run differs from the uninterrupted one", algo, stop)
			}
			if want.Ladder == nil || !reflect.DeepEqual(store.Ladder, want.Ladder) {
				t.Fatalf("%s stop %d: the resumed run's ladder differs (or there is none)", algo, stop)
			}
		}
	}
}

// neverLoses plays w against the defaults from every first move, both
// colours, at depth, and reports whether w lost a game.
func neverLoses(t *testing.T, g games.Game, ev *games.Evaluator, w []float64, depth int) bool {
	t.Helper()
	s, _ := tournament.NewSearchers(1)
	def := ev.Defaults()
	start := g.Start()
	moves, _ := start.Moves(nil)
	for _, m := range moves {
		start.Play(m)
		opening := start.String()
		start.Undo()
		for side := 0; side < 2; side++ {
			a := tournament.Player{Name: "tuned", Evaluator: ev, Weights: w, Limits: engine.Limits{Depth: depth}}
			b := tournament.Player{Name: "default", Evaluator: ev, Weights: def, Limits: engine.Limits{Depth: depth}}
			spec := tournament.GameSpec{Game: g, Opening: opening, First: a, Second: b}
			lose := games.SecondWins
			if side == 1 {
				spec.First, spec.Second, lose = b, a, games.FirstWins
			}
			rec, err := tournament.Play(context.Background(), s, spec)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Outcome == lose {
				return false
			}
		}
	}
	return true
}

// TestTunerRepairsBadWeights: on tic-tac-toe at depth 2, weights that
// reward the opponent's open lines and punish one's own lose to the
// defaults; the genetic tuner started from them finds weights that never
// lose against the defaults.
func TestTunerRepairsBadWeights(t *testing.T) {
	g, _ := all.Find("tictactoe")
	ev := g.Evaluators()[0]
	bad := []float64{-1, 1, -2, 2}
	if neverLoses(t, g, ev, bad, 2) {
		t.Fatal("the bad weights already never lose: the test proves nothing")
	}
	cfg := smallGenetic()
	cfg.Population, cfg.Generations, cfg.Games, cfg.Elite = 12, 8, 4, 2
	cfg.YardstickPairs = 0
	var openings []string
	start := g.Start()
	moves, _ := start.Moves(nil)
	for _, m := range moves {
		start.Play(m)
		openings = append(openings, start.String())
		start.Undo()
	}
	res, err := newTestTuner(t, cfg, 2, NewMemoryStore(), bad, openings).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !neverLoses(t, g, ev, res.Best.Weights, 2) {
		t.Fatalf("best genome %v still loses to the defaults", res.Best.Weights)
	}
}

// TestBracketByes: five candidates make a bracket of eight with byes for
// the first three seeds, and four rounds of matches lead to one winner.
func TestBracketByes(t *testing.T) {
	cfg := smallGenetic()
	cfg.Algo, cfg.Candidates, cfg.Rounds, cfg.Scale, cfg.Ties = Knockout, 5, 1, 1, "random"
	store := NewMemoryStore()
	if _, err := newTestTuner(t, cfg, 2, store, nil, nil).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	gen := store.Generations[0]
	byes, played := 0, 0
	for _, m := range gen.Matches {
		if m.B == tournament.Bye {
			byes++
			if m.A > 2 {
				t.Errorf("bye for seed %d, want the first three seeds", m.A)
			}
		} else {
			played++
			if m.Winner != m.A && m.Winner != m.B {
				t.Errorf("match %+v: the winner did not play", m)
			}
			if m.ScoreA == m.ScoreB && m.TieBreak != "random" {
				t.Errorf("match %+v: tied without a tie-break", m)
			}
			if m.Games != cfg.BestOf {
				t.Errorf("match %+v: %d games, want best-of-%d", m, m.Games, cfg.BestOf)
			}
		}
	}
	if byes != 3 || played != 4 {
		t.Fatalf("%d byes and %d matches, want 3 and 4", byes, played)
	}
}

func TestValidate(t *testing.T) {
	cases := map[string]func(*Config){
		"population 1":         func(c *Config) { c.Population = 1 },
		"games 8":              func(c *Config) { c.Games = 8 },
		"not a probability":    func(c *Config) { c.Redraw = 1.5 },
		"unknown selection":    func(c *Config) { c.Selection = "lottery" },
		"unknown crossover":    func(c *Config) { c.Crossover = "x" },
		"unknown algo":         func(c *Config) { c.Algo = "anneal" },
		"a search needs depth": func(c *Config) { c.Depth = 0 },
		"unknown ties":         func(c *Config) { c.Algo, c.Ties = Knockout, "coin" },
	}
	for want, change := range cases {
		c := smallGenetic()
		change(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v", want, err)
		}
	}
	if err := smallGenetic().Validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseConfig([]byte("population: 10\nbogus: 3\n")); err == nil || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("unknown key: %v", err)
	}
	c := Defaults()
	if err := ApplyPreset(&c, "nope"); err == nil || !strings.Contains(err.Error(), "othello-report") {
		t.Errorf("unknown preset: %v", err)
	}
}

func TestConfigRoundTrip(t *testing.T) {
	c := Defaults()
	ApplyPreset(&c, "othello-report")
	c.TrainingPool = GrowingPool // as Resolve fills it in for a new run on random openings
	back, err := ParseConfig(c.Marshal())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, back) {
		t.Fatalf("config changed through YAML: %+v vs %+v", c, back)
	}
}

// FuzzParseConfig: a config that parses and validates marshals and parses
// back equal.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("population: 10\n"))
	f.Add(Defaults().Marshal())
	f.Add([]byte("algo: [1, 2]"))
	f.Add([]byte("game: othello\nalgo: knockout\nscale: .inf\nopening-list: []\n"))
	f.Add([]byte("game: nim\nstart-weights: {a: 1.5}\nopening-list: [x, y]\nseed: 18446744073709551615\n"))
	f.Add([]byte("game: othello\nopponents: 'default:full,depth=2; cmd=/x,proto=gtp,arg=\"a;b\"'\nopponent-pairs: 2\nopponent-weights: {w.json: {evaluator: full, weights: {corners: 3}}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseConfig(data)
		if err != nil || c.Validate() != nil {
			return
		}
		back, err := ParseConfig(c.Marshal())
		if err != nil {
			t.Fatalf("%+v does not read back: %v\n%s", c, err, c.Marshal())
		}
		if !reflect.DeepEqual(c, back) {
			t.Fatalf("config changed through YAML:\n%+v\n%+v\n%s", c, back, c.Marshal())
		}
	})
}

// TestRecordsAreWDL: every genome's record is a stats.WDL, the records of
// a generation add up to its games (each counted from both sides), and a
// knockout bracket is made of tournament.BracketMatch with tournament.Bye.
func TestRecordsAreWDL(t *testing.T) {
	cfg := smallGenetic()
	store := NewMemoryStore()
	if _, err := newTestTuner(t, cfg, 2, store, nil, nil).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, gen := range store.Generations {
		var total stats.WDL
		for _, g := range gen.Genomes {
			total.Wins += g.WDL.Wins
			total.Draws += g.WDL.Draws
			total.Losses += g.WDL.Losses
		}
		games := 2 * cfg.Games * cfg.Population
		if total.Games() != 2*games || total.Points() != float64(games) || total.Wins != total.Losses {
			t.Fatalf("generation %d: records add up to %+v for %d games", gen.Index, total, games)
		}
		if y := gen.Yardstick; y != nil && y.WDL.Games() != 2*cfg.YardstickPairs {
			t.Fatalf("yardstick %+v", y)
		}
	}
	cfg.Algo, cfg.Candidates, cfg.Rounds, cfg.Scale = Knockout, 3, 1, 1
	store = NewMemoryStore()
	if _, err := newTestTuner(t, cfg, 2, store, nil, nil).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var matches []tournament.BracketMatch = store.Generations[0].Matches
	if len(matches) != 3 || matches[0].B != tournament.Bye || matches[0].A != 0 {
		t.Fatalf("bracket %+v", matches)
	}
	for _, g := range store.Generations[0].Genomes {
		if want := g.Points() / float64(max(g.Games(), 1)); g.Fitness != want {
			t.Errorf("genome %d: fitness %g, want %g from %+v", g.ID, g.Fitness, want, g.WDL)
		}
	}
}

// TestPairingsLinear: a generation of 100000 genomes meeting 2 opponents
// each is paired in well under a second (drawing opponents from a full
// permutation took minutes), each genome meets distinct others, the draw
// is reproducible, and a cancelled context stops the preparation.
func TestPairingsLinear(t *testing.T) {
	cfg := smallGenetic()
	cfg.Population, cfg.Games = 100000, 2
	tu := newTestTuner(t, cfg, 1, NewMemoryStore(), nil, nil)
	m := &genetic{t: tu, cfg: cfg.GeneticConfig}
	pop := m.initialPopulation()
	start := time.Now()
	batch, err := m.pairings(context.Background(), 0, pop)
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("paired %d genomes in %v", len(pop), elapsed)
	if elapsed > 3*time.Second {
		t.Errorf("pairing took %v", elapsed)
	}
	if len(batch) != 2*cfg.Games*cfg.Population {
		t.Fatalf("%d games", len(batch))
	}
	for i := 0; i < len(batch); i += 2 * cfg.Games {
		me := batch[i].first
		seen := map[int]bool{}
		for j := 0; j < 2*cfg.Games; j += 2 {
			g, back := batch[i+j], batch[i+j+1]
			if g.first != me || g.second == me || seen[g.second] || back.first != g.second || back.second != me {
				t.Fatalf("genome %d: games %+v, %+v", me, g.key, back.key)
			}
			seen[g.second] = true
		}
	}
	again, _ := m.pairings(context.Background(), 0, pop)
	for i := range batch {
		if batch[i].first != again[i].first || batch[i].second != again[i].second || batch[i].opening != again[i].opening {
			t.Fatalf("game %d drawn differently the second time", i)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.pairings(ctx, 0, pop); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled pairing returned %v", err)
	}
}

// TestSampler: every draw is k distinct values of [0, n), the identity is
// restored, and the draw depends on the generator alone.
func TestSampler(t *testing.T) {
	s := newSampler(10)
	counts := make([]int, 10)
	for seed := uint64(0); seed < 2000; seed++ {
		got := s.sample(rand.New(rand.NewPCG(seed, 0)), 3, nil)
		seen := map[int]bool{}
		for _, v := range got {
			if v < 0 || v >= 10 || seen[v] {
				t.Fatalf("seed %d: %v", seed, got)
			}
			seen[v] = true
			counts[v]++
		}
		if again := newSampler(10).sample(rand.New(rand.NewPCG(seed, 0)), 3, nil); !reflect.DeepEqual(got, again) {
			t.Fatalf("seed %d: %v, then %v from a fresh sampler", seed, got, again)
		}
	}
	for i, v := range s.perm {
		if v != i {
			t.Fatalf("permutation not restored: %v", s.perm)
		}
	}
	for v, c := range counts { // 600 expected each
		if c < 450 || c > 750 {
			t.Errorf("value %d drawn %d times in 2000 draws of 3 from 10", v, c)
		}
	}
	if got := newSampler(4).sample(rand.New(rand.NewPCG(1, 0)), 4, nil); len(got) != 4 {
		t.Fatalf("full draw %v", got)
	}
}

// TestConfigHardening: integer keys refuse other numbers, every size is
// bounded with the bound in the message, internal keys are refused in a
// user's config but read from a recorded one, and no message names a
// command-line flag.
func TestConfigHardening(t *testing.T) {
	for _, in := range []string{"population: 1e9\n", "games: 2.5\n", "seed: 1.5\n", "depth: 4.0\n", "max-plies: [1]\n", "population: ~\n"} {
		c := Defaults()
		err := MergeConfig(&c, []byte(in))
		key := strings.Split(in, ":")[0]
		if err == nil || !strings.Contains(err.Error(), "line 1: "+key) || !strings.Contains(err.Error(), "not an integer") {
			t.Errorf("%q: %v", in, err)
		}
	}
	if c, err := ParseConfig([]byte("population: 12\nseed: 7\nredraw: 1\n")); err != nil || c.Population != 12 || c.Seed != 7 || c.Redraw != 1 {
		t.Errorf("integers: %+v %v", c, err)
	}
	for want, change := range map[string]func(*Config){
		"population 100001: 2 to 100000":      func(c *Config) { c.Population, c.Games = MaxPopulation+1, 1 },
		"generations 100001: 1 to 100000":     func(c *Config) { c.Generations = MaxGenerations + 1 },
		"is 300000 meetings":                  func(c *Config) { c.Population, c.Games = 100000, 3 },
		"depth 65: want 1 to 64":              func(c *Config) { c.Depth = engine.MaxDepth + 1 },
		"nodes 1099511627777: want":           func(c *Config) { c.Nodes = engine.MaxNodes + 1 },
		"max-plies 10001: 0":                  func(c *Config) { c.MaxPlies = MaxPlyCap + 1 },
		"yardstick-pairs must be 0 to 100000": func(c *Config) { c.YardstickPairs = MaxYardstickPairs + 1 },
		"candidates 1025: 2 to 1024":          func(c *Config) { c.Algo, c.Candidates = Knockout, MaxCandidates+1 },
		"rounds 100001: 1 to 100000":          func(c *Config) { c.Algo, c.Rounds = Knockout, MaxRounds+1 },
		"best-of 1002: 1 to 1001":             func(c *Config) { c.Algo, c.BestOf = Knockout, MaxBestOf+1 },
		"start-weights: x is NaN":             func(c *Config) { c.StartWeights = map[string]float64{"x": math.NaN()} },
		"no game (the config's game)":         func(c *Config) { c.Game = "" },
	} {
		c := smallGenetic()
		change(&c)
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v", want, err)
		}
		if err != nil && strings.Contains(err.Error(), "--") {
			t.Errorf("%v names a flag", err)
		}
	}
	c := smallGenetic()
	c.Population, c.Games = MaxPopulation, MaxPopulationGames/MaxPopulation
	if err := c.Validate(); err != nil {
		t.Errorf("at the bounds: %v", err)
	}
	for _, key := range []string{"opening-list: [x--------]\n", "start-weights: {a: 1}\n"} {
		c := Defaults()
		if err := MergeConfig(&c, []byte(key)); err == nil || !strings.Contains(err.Error(), "filled in when a run is created") {
			t.Errorf("%q: %v", key, err)
		}
		if _, err := ParseConfig([]byte(key)); err != nil {
			t.Errorf("recorded %q: %v", key, err)
		}
	}
	if c := Defaults(); MergeConfig(&c, []byte("bogus: 1\n")) == nil {
		t.Error("unknown key accepted")
	} else if err := MergeConfig(&c, []byte("bogus: 1\n")); strings.Contains(err.Error(), "--") || strings.Contains(err.Error(), "opening-list") || !strings.Contains(err.Error(), "population") {
		t.Errorf("unknown key: %v", err)
	}
	if got := PresetNames(); !reflect.DeepEqual(got, []string{"checkers-paper", "othello-report"}) {
		t.Errorf("presets %v", got)
	}
}

// TestFinishedOpeningRefused: a config's opening list holding a finished
// game is refused with its line.
func TestFinishedOpeningRefused(t *testing.T) {
	cfg := smallGenetic()
	g, _ := all.Find(cfg.Game)
	pool, _ := tournament.NewPool(1, 1)
	_, err := NewTuner(cfg, g, []string{"x--------", "xxxoo----"}, nil, pool, NewMemoryStore())
	if err == nil || !strings.Contains(err.Error(), "line 2 of the opening list") || !strings.Contains(err.Error(), "already over") {
		t.Fatalf("finished opening: %v", err)
	}
}

// TestBigGenerationStopsPromptly: closing a generation of 100000 genomes
// (pairwise diversity, roulette selection: quadratic) notices a cancelled
// context at once.
func TestBigGenerationStopsPromptly(t *testing.T) {
	cfg := smallGenetic()
	cfg.Population, cfg.Games = 100000, 2
	tu := newTestTuner(t, cfg, 1, NewMemoryStore(), nil, nil)
	m := &genetic{t: tu, cfg: cfg.GeneticConfig}
	pop := m.initialPopulation()
	for i := range pop {
		pop[i].Fitness = 1
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if _, err := summarise(ctx, tu.space, 0, pop); !errors.Is(err, context.Canceled) {
		t.Errorf("summarise: %v", err)
	}
	if _, err := m.breed(ctx, 0, pop); !errors.Is(err, context.Canceled) {
		t.Errorf("breed: %v", err)
	}
	if d := time.Since(start); d > 10*time.Second { // a whole breed takes far longer
		t.Errorf("took %v to stop", d)
	}
}
