package tuning

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament"
)

// pool is a runner of one local worker.
type pool struct{ *tournament.Pool }

func (p pool) Close() { p.Pool.Close() }

// local opens a pool of one worker, whatever the run.
func local(t *testing.T) Opener {
	return func(ctx context.Context, name, dir string) (Runner, error) {
		if !strings.HasPrefix(name, "run-") || dir == "" {
			t.Errorf("opened for run %q in %q", name, dir)
		}
		p, err := tournament.NewPool(1, 1)
		return pool{p}, err
	}
}

var sources = Sources{MaxFile: 1 << 20}

// smallConfig is a short tic-tac-toe run.
func smallConfig(generations int) population.Config {
	cfg := population.Defaults()
	cfg.Game, cfg.Depth, cfg.Openings = "tictactoe", 1, "start"
	cfg.Population, cfg.Generations, cfg.Games, cfg.YardstickPairs, cfg.LadderPairs = 4, generations, 1, 1, 1
	return cfg
}

// newRun creates a run of cfg in a new directory.
func newRun(t *testing.T, cfg population.Config) (*population.Plan, *results.Run) {
	t.Helper()
	plan, err := population.Resolve(context.Background(), cfg, sources)
	if err != nil {
		t.Fatal(err)
	}
	run, err := Create(context.Background(), filepath.Join(t.TempDir(), "run"), plan)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { run.Close() })
	return plan, run
}

// TestTuneAndLadder: Tune runs a job to its end, records it done, draws
// its report and prints what it gave; Ladder plays its ladder again; a
// second Create of the directory is refused.
func TestTuneAndLadder(t *testing.T) {
	plan, run := newRun(t, smallConfig(3))
	var stdout, stderr bytes.Buffer
	if err := Tune(context.Background(), plan, run, local(t), Output{&stdout, &stderr, false}); err != nil {
		t.Fatal(err)
	}
	out := stdout.String()
	for _, want := range []string{"3 generations, ", "ladder (1 pairs per pairing", "best: ", "results in " + run.Dir()} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if !strings.Contains(stderr.String(), "generation 3/3: best ") {
		t.Errorf("no line for the last generation in\n%s", stderr.String())
	}
	if info, _ := run.Info(); info.Status != results.StatusDone {
		t.Errorf("status %s", info.Status)
	}
	if _, err := os.Stat(filepath.Join(run.Dir(), "report.html")); err != nil {
		t.Error(err)
	}
	if _, err := Create(context.Background(), run.Dir(), plan); !errors.Is(err, results.ErrExists) {
		t.Errorf("second Create: %v", err)
	}
	v, err := Ladder(context.Background(), plan, run, local(t), 2, Output{io.Discard, io.Discard, true})
	if err != nil {
		t.Fatal(err)
	}
	if v.Ladder == nil || v.Ladder.Pairs != 2 || v.Best.Label == "" {
		t.Fatalf("ladder %+v, best %+v", v.Ladder, v.Best)
	}
}

// TestLadderTooShort: a run of one generation has no ladder.
func TestLadderTooShort(t *testing.T) {
	plan, run := newRun(t, smallConfig(1))
	if err := Tune(context.Background(), plan, run, local(t), Output{io.Discard, io.Discard, true}); err != nil {
		t.Fatal(err)
	}
	if _, err := Ladder(context.Background(), plan, run, local(t), 0, Output{io.Discard, io.Discard, true}); !errors.Is(err, population.ErrLadderTooShort) {
		t.Fatalf("got %v, want ErrLadderTooShort", err)
	}
}

// TestTuneInterrupted: a job whose context is cancelled is recorded
// interrupted, with how to go on.
func TestTuneInterrupted(t *testing.T) {
	plan, run := newRun(t, smallConfig(3))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stderr bytes.Buffer
	if err := Tune(ctx, plan, run, local(t), Output{io.Discard, &stderr, true}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	if info, _ := run.Info(); info.Status != results.StatusInterrupted || !strings.Contains(stderr.String(), "tune resume "+run.Dir()) {
		t.Fatalf("status %s, %q", info.Status, stderr.String())
	}
}

// TestSources: a plan reads the games of another run.
func TestSources(t *testing.T) {
	plan, run := newRun(t, smallConfig(1))
	if err := Tune(context.Background(), plan, run, local(t), Output{io.Discard, io.Discard, true}); err != nil {
		t.Fatal(err)
	}
	game, recent, err := sources.RunGames(run.Dir(), 3)
	if err != nil || game != "tictactoe" || len(recent) != 3 {
		t.Fatalf("%s, %d games, %v", game, len(recent), err)
	}
}

// smallComparison is a comparison of genetic and SPSA on tic-tac-toe, 20
// games each, in dir; each tuner's run is run by run (nil: to its end).
func smallComparison(t *testing.T, dir string, run func(ctx context.Context, plan *population.Plan, dir string) error) Comparison {
	base := population.Defaults()
	base.Game, base.Depth, base.Openings, base.BudgetGames, base.YardstickPairs = "tictactoe", 1, "start", 20, 0
	if run == nil {
		run = func(ctx context.Context, plan *population.Plan, dir string) error {
			r, err := Create(ctx, dir, plan)
			if err != nil {
				return err
			}
			defer r.Close()
			return Tune(ctx, plan, r, local(t), Output{io.Discard, io.Discard, true})
		}
	}
	return Comparison{Base: base, Algos: []population.Algo{population.Genetic, population.SPSA}, Dir: dir, Champions: 2, Pairs: 1,
		Resolve: func(ctx context.Context, cfg population.Config) (*population.Plan, error) {
			return population.Resolve(ctx, cfg, sources)
		},
		Run: run, Ladder: local(t), Out: Output{io.Discard, io.Discard, true}}
}

// TestCompare: Compare runs every tuner in its directory, rates their
// champions in one ladder, writes the comparison, its record (done) and
// its page; an existing directory is refused.
func TestCompare(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cmp")
	c := smallComparison(t, dir, nil)
	rows, table, err := Compare(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Algo != "genetic" || rows[1].Algo != "spsa" || len(rows[0].Entries) == 0 || rows[0].Champion != rows[0].Entries[len(rows[0].Entries)-1].Label {
		t.Fatalf("rows %+v", rows)
	}
	if !strings.Contains(string(table), "\ngenetic ") {
		t.Errorf("table\n%s", table)
	}
	for _, f := range []string{"compare.png", "compare.svg", "compare.txt", "ladder", "genetic", "spsa", "compare.json", "compare.html"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	rec, err := results.ReadCompareRecord(dir)
	if err != nil || rec.Status != results.StatusDone || strings.Join(rec.Algos, ",") != "genetic,spsa" || rec.BudgetGames != 20 || rec.Evaluator != "lines" {
		t.Errorf("record %+v, %v", rec, err)
	}
	// The page's rows are the rows Compare returned.
	page, _ := os.ReadFile(filepath.Join(dir, "compare.html"))
	for _, r := range rows {
		if want := fmt.Sprintf(`<td class="name">%s</td><td>%s</td>`, r.Champion, strings.ReplaceAll(eloText(r), "+", "&#43;")); !strings.Contains(string(page), want) {
			t.Errorf("compare.html lacks %s", want)
		}
	}
	if _, _, err := Compare(context.Background(), c); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("again: %v", err)
	}
}

// eloText is a row's Elo with its interval as the page writes it.
func eloText(r results.CompareRow) string {
	return fmt.Sprintf("%s [%s, %s]", reports.EloText(float64(r.Elo)), reports.EloText(float64(r.Low)), reports.EloText(float64(r.High)))
}

// TestCompareInterrupted: a comparison interrupted in its second tuner
// records it interrupted, as its tuner's run is, and its page is written
// with the first tuner's run; tune runs lists it so.
func TestCompareInterrupted(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cmp")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	whole := smallComparison(t, dir, nil).Run
	c := smallComparison(t, dir, func(ctx context.Context, plan *population.Plan, dir string) error {
		if plan.Config().Algo == population.SPSA {
			cancel() // a signal during the second tuner
		}
		return whole(ctx, plan, dir)
	})
	if _, _, err := Compare(ctx, c); err == nil {
		t.Fatal("an interrupted comparison ended without an error")
	}
	lines, errs := results.ListLines(filepath.Dir(dir))
	if len(errs) > 0 || len(lines) != 1 || lines[0].Compare == nil {
		t.Fatalf("lines %+v, %v", lines, errs)
	}
	l := lines[0]
	tuners := l.Compare.Tuners
	if l.Status != results.StatusInterrupted || tuners[0].Status != results.StatusDone || tuners[1].Status != results.StatusInterrupted || l.Best != nil {
		t.Errorf("comparison %s, tuners %s and %s, best %v: want interrupted, done, interrupted, none", l.Status, tuners[0].Status, tuners[1].Status, l.Best)
	}
	if l.Games != tuners[0].Games+tuners[1].Games || tuners[0].Games == 0 {
		t.Errorf("games %d, want the tuners' %d + %d", l.Games, tuners[0].Games, tuners[1].Games)
	}
	if page, err := os.ReadFile(filepath.Join(dir, "compare.html")); err != nil || !strings.Contains(string(page), `id="compare-status">interrupted<`) {
		t.Errorf("the page: %v", err)
	}
}

// TestGenerationLine: the line of a knockout round names its winner, the
// final it won, its score, its move, the yardstick and why the run
// stopped.
func TestGenerationLine(t *testing.T) {
	cfg := population.Defaults()
	cfg.Algo, cfg.Rounds = population.Knockout, 5
	g := population.Generation{Index: 1, Best: 7, BestFitness: 0.75, MeanFitness: 0.5, Diversity: 0.25, Distance: 0.125, Stop: "converged",
		Matches:   []tournament.BracketMatch{{Round: 0, A: 7, B: 8, ScoreA: 3, ScoreB: 2, Winner: 7}, {Round: 1, A: 5, B: 7, ScoreA: 1.5, ScoreB: 3.5, Winner: 7}},
		Yardstick: &population.Yardstick{Elo: 30, EloLow: -10.4, EloHigh: 70}}
	want := "round 2/5: winner genome 7 (won the final 3.5-1.5), 0.750 of the points over its matches, moved 0.125, yardstick +30 Elo [-10, +70], stopped: converged, 12.5 games/s"
	if got := generationLine(cfg, nil, nil, g, 12.5); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
