package tuning

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
)

// termsConfig is a short tic-tac-toe run of algo whose games are not all
// draws (two random plies open each).
func termsConfig(algo population.Algo) population.Config {
	cfg := smallConfig(3)
	cfg.Algo, cfg.Openings = algo, "random:2"
	cfg.Candidates, cfg.Rounds = 4, 3
	cfg.SPSAIterations, cfg.SPSABlock, cfg.SPSAREnd = 24, 4, 0.02
	cfg.CMAESGenerations, cfg.CMAESPairs = 3, 1
	cfg.TexelRounds, cfg.TexelGames = 3, 30
	cfg.BayesRounds, cfg.BayesPairs = 4, 2
	return cfg
}

// TestGenerationLinesOwnTerms runs every tuner for real and reads its
// terminal lines: each generation's line speaks in the tuner's terms, with
// the values the run recorded (SPSA's c_k and a_k computed here by hand),
// and only the genetic tuner's speaks of diversity; its score fitness is
// shown as the points a game behind it.
func TestGenerationLinesOwnTerms(t *testing.T) {
	for _, algo := range []population.Algo{population.Genetic, population.Knockout, population.SPSA, population.CMAES, population.Texel, population.Bayes} {
		t.Run(string(algo), func(t *testing.T) {
			plan, run := newRun(t, termsConfig(algo))
			var stderr bytes.Buffer
			if err := Tune(context.Background(), plan, run, local(t), Output{io.Discard, &stderr, false}); err != nil {
				t.Fatal(err)
			}
			hist, err := run.Generations()
			if err != nil {
				t.Fatal(err)
			}
			lines := regexp.MustCompile(`(?m)^(generation|round|block) \d+/\d+: [a-z].*$`).FindAllString(stderr.String(), -1)
			if len(lines) != len(hist) {
				t.Fatalf("%d generation lines for %d generations:\n%s", len(lines), len(hist), stderr.String())
			}
			for i, g := range hist {
				want := wantTerms(t, plan.Config(), g)
				if !strings.Contains(lines[i], want) {
					t.Errorf("line %d\n  %s\nlacks\n  %s", i+1, lines[i], want)
				}
				own := algo == population.Genetic
				if own != strings.Contains(lines[i], "diversity") || strings.Contains(lines[i], "fitness") {
					t.Errorf("%s's line speaks of diversity: %v, want %v (and of a score fitness never):\n  %s", algo, !own, own, lines[i])
				}
			}
		})
	}
}

// wantTerms is what the line of generation g of a run of cfg must say,
// from what the run recorded.
func wantTerms(t *testing.T, cfg population.Config, g population.Generation) string {
	t.Helper()
	name := cfg.GenerationOf(g.Index) + ": "
	switch cfg.Algo {
	case population.SPSA:
		// Every range of tic-tac-toe is [-5, 5]: c_end = spsa-c-end * 10.
		k, n := float64(4*(g.Index+1)), float64(cfg.SPSAIterations)
		cEnd, big := cfg.SPSACEnd*10, cfg.SPSAARatio*n
		ck := cEnd * math.Pow(n/k, cfg.SPSAGamma)
		ak := cfg.SPSAREnd * cEnd * cEnd * math.Pow((big+n)/(big+k), cfg.SPSAAlpha)
		return fmt.Sprintf("%siterations %d-%d of %d, c_k %.3g, a_k %.3g, theta ", name, int(k)-3, int(k), cfg.SPSAIterations, ck, ak)
	case population.CMAES:
		return fmt.Sprintf("%ssigma %.4f of each range, mean moved %.4f, best candidate scored %.3f against the mean (the candidates %.3f)",
			name, cmaesSigma(g), g.Distance, g.BestFitness, g.MeanFitness)
	case population.Texel:
		verdict := "fit accepted"
		held := -g.BestFitness
		if g.Best != g.Index+1 {
			verdict, held = fmt.Sprintf("fit refused: kept genome %d", g.Best), -g.Genomes[1].Fitness
		}
		gate := ""
		for _, x := range g.Genomes {
			if x.ID == g.Index+1 && x.Games() > 0 {
				gate = fmt.Sprintf("gate %.1f%% (%d-%d-%d) against the round's start, ", 100*x.Score(), x.Wins, x.Draws, x.Losses)
			}
		}
		return fmt.Sprintf("%straining loss %.5f, held-out loss %.5f (the start's %.5f), %s%s", name, -g.MeanFitness, held, -g.WorstFitness, gate, verdict)
	case population.Knockout:
		return fmt.Sprintf("%swinner genome %d (won the final ", name, g.Best)
	case population.Bayes:
		// The candidate is genome 2g+1, its Elo and sd the round's mean and
		// worst fitness; the model's mean and sd at the champion its best
		// fitness and its diversity (population.BayesRoundOf).
		var c population.Genome
		for _, x := range g.Genomes {
			if x.ID == 2*g.Index+1 {
				c = x
			}
		}
		return fmt.Sprintf("%scandidate %+.0f ± %.0f Elo (%d-%d-%d), optimum %+.0f ± %.0f Elo by the model at champion genome %d, moved %.3f",
			name, g.MeanFitness, g.WorstFitness, c.Wins, c.Draws, c.Losses, g.BestFitness, g.Diversity, g.Best, g.Distance)
	}
	// The score fitness is shown as the points a game behind it, without the
	// 0.01 the roulette wheel needs.
	return fmt.Sprintf("%sbest genome %d scored %.3f points a game (mean %.3f), diversity %.3f", name, g.Best,
		g.BestFitness-0.01, g.MeanFitness-0.01, g.Diversity)
}

// cmaesSigma is the spread of a tic-tac-toe CMA-ES generation's 8
// candidates (4 + 3 ln 4), by hand: the root mean square of each weight's
// standard deviation over its range of 10, corrected by 8/7.
func cmaesSigma(g population.Generation) float64 {
	sum := 0.0
	for _, sd := range g.Std {
		sum += (sd / 10) * (sd / 10)
	}
	return math.Sqrt(sum / 4 * 8 / 7)
}

// TestRunLeft: with a games budget the time left is the budget's games
// left at the pace so far, from the first game (a budget-sized run plans
// 100,000 generations, which the first estimates once took for its
// length: "389h left"); without one, the planned generations' games, the
// ladder's and at most the verification's, at their cost.
func TestRunLeft(t *testing.T) {
	cfg := population.Defaults()
	cfg.BudgetGames, cfg.Generations = 6000, population.MaxGenerations
	p := population.Progress{Stage: population.StageGeneration, Generation: 0, Done: 1, Total: 128}
	// 100 games played in 10 s, 1,000 known (900 found in the store):
	// 5,000 games left at 10 games a second.
	if got := runLeft(cfg, p, 100, 1000, 128, 10*time.Second, later{}); got != "run about 8m20s left" {
		t.Errorf("budget: %q, want run about 8m20s left", got)
	}
	cfg.BudgetGames, cfg.Generations = 0, 10
	// Generation 3 of 10, 1,796 games planned (the yardstick's included),
	// 1,000 known: 796 left.
	p.Generation, p.Done = 3, 100
	if got := runLeft(cfg, p, 100, 1000, 128, 10*time.Second, later{tuning: 1796}); got != "run about 1m20s left" {
		t.Errorf("no budget: %q, want run about 1m20s left (796 games)", got)
	}
	// A time budget: 28 games left in generation 3, then the generations
	// the pace gives (3 in 10 s of a 40 s budget: 12 in all, 8 after this
	// one), of 128 games.
	cfg.BudgetTime, cfg.Generations = "40s", population.MaxGenerations
	if got := runLeft(cfg, p, 100, 1000, 128, 10*time.Second, later{}); got != "run about 1m45s left" {
		t.Errorf("time budget: %q, want run about 1m45s left (28 + 8*128 = 1,052 games)", got)
	}
	cfg.BudgetTime, cfg.Generations = "", 10
	// Every stage counted: then a ladder of 200 games, and a verification of
	// at most 400 games each costing 3 of the run's: 796 + 200 games, then
	// up to 1,200, at 10 a second.
	after := later{tuning: 1796, ladder: 200, verify: 400, verifyCost: 3}
	for _, tc := range []struct {
		p    population.Progress
		want string
	}{
		{p, "run about 1m40s left, then up to 2m0s for the verification"},
		{population.Progress{Stage: population.StageLadder, Done: 50, Total: 200}, "run about 15s left, then up to 2m0s for the verification"},
		{population.Progress{Stage: population.StageVerify, Done: 100, Total: 400}, "run about 1m30s left"},
	} {
		if got := runLeft(cfg, tc.p, 100, 1000, 128, 10*time.Second, after); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.p.Stage, got, tc.want)
		}
	}
	if got := runLeft(cfg, p, 3, 3, 128, 500*time.Millisecond, after); got != "" {
		t.Errorf("in the run's first second: %q, want nothing (the pace of a game or two)", got)
	}
}

// TestLaterStages: a run's ladder and verification are known before its
// first game: the ladder's games as the run will play them, the
// verification's cap, and a verification game's cost measured as the
// nodes of a search to depth + 2 over those to the run's depth (more than
// one game of the run's); with verify off, none.
func TestLaterStages(t *testing.T) {
	cfg := smallConfig(3)
	cfg.Verify, cfg.VerifyPairs, cfg.LadderPairs = population.VerifyAuto, 10, 2
	plan, _ := newRun(t, cfg)
	l := laterStages(plan)
	if l.verify != 20 || l.ladder == 0 || l.verifyCost <= 1 {
		t.Errorf("later stages %+v: want 20 verification games, a ladder, and a verification game costing more than 1", l)
	}
	cfg.Verify = population.VerifyOff
	plan, _ = newRun(t, cfg)
	if l := laterStages(plan); l.verify != 0 || l.ladder == 0 {
		t.Errorf("verify off: later stages %+v, want a ladder and no verification", l)
	}
}

// TestReportRefreshedSparingly: a job of many small generations draws its
// report after its first generation and when it ends, not after each
// generation (drawing it after each of SPSA's blocks took 89% of a run's
// time): 20 blocks, 2 drawings, within refreshEvery.
func TestReportRefreshedSparingly(t *testing.T) {
	defer func(f func(string) error) { refresh = f }(refresh)
	calls := 0
	refresh = func(dir string) error {
		calls++
		return reports.Refresh(dir)
	}
	cfg := termsConfig(population.SPSA)
	cfg.SPSAIterations, cfg.SPSABlock = 40, 2
	plan, run := newRun(t, cfg)
	start := time.Now()
	if err := Tune(context.Background(), plan, run, local(t), Output{io.Discard, io.Discard, true}); err != nil {
		t.Fatal(err)
	}
	hist, err := run.Generations()
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) >= refreshEvery {
		t.Skipf("the run took %v, longer than refreshEvery", time.Since(start))
	}
	if len(hist) != 20 || calls != 2 {
		t.Errorf("%d generations, %d drawings of the report: want 20 and 2", len(hist), calls)
	}
}

// TestGenerationLineRate: a generation's line gives the run's rate only
// when it is known: not for a generation a resume replays from the store
// (no game played yet: once "0.0 games/s"), nor in the run's first second.
func TestGenerationLineRate(t *testing.T) {
	cfg := termsConfig(population.Genetic)
	plan, _ := newRun(t, cfg)
	g := population.Generation{Index: 0, Genomes: []population.Genome{{ID: 1}}, Best: 1}
	if line := generationLine(plan.Config(), plan.Evaluator(), nil, g, 0); strings.Contains(line, "games/s") {
		t.Errorf("a replayed generation's line gives a rate: %q", line)
	}
	if line := generationLine(plan.Config(), plan.Evaluator(), nil, g, 2.5); !strings.HasSuffix(line, ", 2.5 games/s") {
		t.Errorf("a played generation's line lacks its rate: %q", line)
	}
}

// TestGamesLeftFromTheFirstGeneration: from the end of the first
// generation on, the games a run says it has left (the time-left line's
// count, before the pace turns it into time) are within 20% of the games
// it then plays: its generations', its yardstick's and its ladder's. The
// run is a small othello-report preset (genetic, Othello's report
// evaluator, at depth 1, 24 generations of 8 genomes, a ladder of its
// champions). Counted in games, not seconds, so that a busy machine cannot
// break it; the verification is off (its SPRT decides its length, and
// the line gives it apart as an upper bound).
func TestGamesLeftFromTheFirstGeneration(t *testing.T) {
	cfg := population.Defaults()
	if err := population.ApplyPreset(&cfg, "othello-report"); err != nil {
		t.Fatal(err)
	}
	cfg.Depth, cfg.Population, cfg.Generations, cfg.Games = 1, 8, 24, 2
	cfg.Verify, cfg.YardstickEvery, cfg.YardstickPairs, cfg.LadderPairs = population.VerifyOff, 1, 2, 1
	type seen struct {
		p     population.Progress
		known int
		games float64
	}
	var log []seen
	seenLeft = func(p population.Progress, known int, games float64) { log = append(log, seen{p, known, games}) }
	defer func() { seenLeft = nil }()
	plan, run := newRun(t, cfg)
	if err := Tune(context.Background(), plan, run, local(t), Output{io.Discard, io.Discard, false}); err != nil {
		t.Fatal(err)
	}
	if len(log) == 0 {
		t.Fatal("no count of the games left")
	}
	total, checked := log[len(log)-1].known, 0
	for _, s := range log {
		actual := total - s.known
		if (s.p.Stage != population.StageLadder && s.p.Generation < 1) || actual < 20 {
			continue
		}
		checked++
		if math.Abs(s.games-float64(actual)) > 0.2*float64(actual) {
			t.Errorf("%s %d, %d/%d games: %.0f games left counted, %d played", s.p.Stage, s.p.Generation+1, s.p.Done, s.p.Total, s.games, actual)
		}
	}
	if checked < 500 {
		t.Errorf("only %d counts checked of %d", checked, len(log))
	}
}
