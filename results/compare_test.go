package results

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
)

// tunerFixture records the run of a comparison's tuner algo in dir: a
// tic-tac-toe run (4 weights) with a generation of 2 genomes per spent
// count of spents, and spents[len-1] games; it is left with status.
func tunerFixture(t *testing.T, dir, algo string, spents []int, status Status) {
	t.Helper()
	cfg := population.Defaults()
	cfg.Game, cfg.Algo, cfg.BudgetGames = "tictactoe", population.Algo(algo), 40
	r, err := Create(dir, cfg.Marshal(), cfg.Game, algo, cfg.Seed, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.SetStatus(StatusRunning); err != nil {
		t.Fatal(err)
	}
	for i := range spents[len(spents)-1] {
		g := population.GameResult{Key: population.GameKey{Stage: population.StageGeneration, Index: i}, First: 0, Second: 1,
			Record: tournament.Record{Outcome: games.Draw, Reason: "rule", Opening: "---------", Plies: 9}}
		if err := r.RecordGame(g); err != nil {
			t.Fatal(err)
		}
	}
	for i, spent := range spents {
		w := []float64{1, -1, 2 + float64(i), -2}
		g := population.Generation{Index: i, Best: 2 * i, Spent: spent, Mean: w, Std: make([]float64, 4),
			Genomes: []population.Genome{{ID: 2 * i, Weights: w}, {ID: 2*i + 1, Weights: w}}}
		if err := r.RecordGeneration(g); err != nil {
			t.Fatal(err)
		}
	}
	if status != StatusRunning {
		if err := r.SetStatus(status); err != nil {
			t.Fatal(err)
		}
	}
}

// compareFixture makes the comparison dir of genetic, spsa and cmaes (40
// games each) as tune compare leaves it: genetic done (2 generations, 6
// games), spsa done (1 generation, 4 games), cmaes not started, and with
// rated the shared ladder (the defaults the reference at -5; genetic's
// champions at +5 and +45 [+15, +75], spsa's at +25 [-15, +65]) and the
// record done; without, the record still running. The writer is
// returned, holding the comparison's lock until closed.
func compareFixture(t *testing.T, dir string, rated bool) *Comparison {
	t.Helper()
	c, err := CreateComparison(dir, CompareRecord{Game: "tictactoe", Algos: []string{"genetic", "spsa", "cmaes"}, BudgetGames: 40, Seed: 3, Config: "game: tictactoe\n"})
	if err != nil {
		t.Fatal(err)
	}
	tunerFixture(t, filepath.Join(dir, "genetic"), "genetic", []int{3, 6}, StatusDone)
	tunerFixture(t, filepath.Join(dir, "spsa"), "spsa", []int{4}, StatusDone)
	if !rated {
		return c
	}
	cfg := population.Defaults()
	cfg.Game, cfg.BudgetGames = "tictactoe", 40 // the last tuner's config, as tune compare records it
	r, err := Create(filepath.Join(dir, CompareLadder), cfg.Marshal(), cfg.Game, "compare", cfg.Seed, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w := []float64{1, -1, 2, -2}
	l := population.Ladder{Pairs: 2, Reference: 0, Best: 2, BestLow: 20, BestHigh: 80, Entries: []population.LadderEntry{
		{Label: "defaults", Genome: population.DefaultsID, Generation: -1, Weights: w, Elo: -5, Low: -5, High: -5},
		{Label: "genetic:g1", Genome: 1_000_000_000, Generation: 0, Spent: 3, Weights: w, Elo: 5, Low: -25, High: 35},
		{Label: "genetic:g2", Genome: 1_000_000_002, Generation: 1, Spent: 6, Weights: []float64{1, -1, 3, -2}, WDL: stats.WDL{Wins: 3, Draws: 1}, Elo: 45, Low: 15, High: 75},
		{Label: "spsa:g1", Genome: 2_000_000_000, Generation: 0, Spent: 4, Weights: w, Elo: 25, Low: -15, High: 65},
	}}
	if err := r.RecordLadder(l); err != nil {
		t.Fatal(err)
	}
	if err := c.End(StatusDone); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCompareView: a comparison reads back with its tuners in order (the
// one not started pending), its progress the games of its tuners' stores
// summed, each row its champions on the shared ladder over the reference,
// and the best tuner the one whose last champion rates highest.
func TestCompareView(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cmp")
	compareFixture(t, dir, true).Close()
	v, err := OpenCompareView(dir)
	if err != nil {
		t.Fatal(err)
	}
	if v.Record.Status != StatusDone || v.Record.Ended.IsZero() || v.Name != "cmp" {
		t.Errorf("record %+v", v.Record)
	}
	if got := []Status{v.Tuners[0].Info.Status, v.Tuners[1].Info.Status, v.Tuners[2].Info.Status}; got[0] != StatusDone || got[1] != StatusDone || got[2] != StatusPending {
		t.Errorf("tuners' statuses %v, want done, done, pending", got)
	}
	if v.Games() != 10 || v.Progress() != "10/120 games" {
		t.Errorf("games %d, progress %q; want 6+4 = 10 of 3 × 40", v.Games(), v.Progress())
	}
	g, s, c := v.Rows[0], v.Rows[1], v.Rows[2]
	if g.Champion != "genetic:g2" || g.Elo != 50 || g.Low != 20 || g.High != 80 || len(g.Entries) != 2 || g.Games != 6 {
		t.Errorf("genetic's row %+v: want genetic:g2 +50 [+20, +80] over the defaults, 2 entries, 6 games", g)
	}
	if s.Champion != "spsa:g1" || s.Elo != 30 || len(s.Entries) != 1 || s.Games != 4 {
		t.Errorf("spsa's row %+v: want spsa:g1 +30, 1 entry, 4 games", s)
	}
	if c.Champion != "" || !math.IsNaN(float64(c.Elo)) || c.Entries != nil {
		t.Errorf("cmaes's row %+v: want none rated", c)
	}
	b, algo := v.BestJSON()
	if algo != "genetic" || b == nil || b.Label != "genetic:g2" || !b.Confident || b.Reference != "defaults" || b.Weights["threats-mine"] != 3 {
		t.Fatalf("best %q %+v: want genetic's genetic:g2, confident over the defaults, its weights", algo, b)
	}
	line := v.Line()
	if line.Algo != "compare" || line.Games != 10 || line.Generations != 3 || line.Progress != "10/120 games" || line.Compare.BestTuner != "genetic" ||
		line.BestElo != 50 || len(line.Compare.Tuners) != 3 || line.Compare.Tuners[2].Status != StatusPending || line.Compare.Tuners[0].Progress != "6/40 games" {
		t.Errorf("line %+v %+v", line, line.Compare)
	}
}

// TestListLines: a folder's list holds its runs and its comparisons, each
// comparison once with its tuners in it (not listed apart, nor its
// ladder's run), also when the folder is the comparison itself; one whose
// process is gone while it ran reads interrupted.
func TestListLines(t *testing.T) {
	root := t.TempDir()
	compareFixture(t, filepath.Join(root, "cmp"), true).Close()
	compareFixture(t, filepath.Join(root, "half"), false).Close() // left running, its process gone
	tunerFixture(t, filepath.Join(root, "plain"), "genetic", []int{2}, StatusDone)
	lines, errs := ListLines(root)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, l := range lines {
		got = append(got, filepath.Base(l.Dir)+" "+l.Algo+" "+string(l.Status))
	}
	if strings.Join(got, "; ") != "cmp compare done; half compare interrupted; plain genetic done" {
		t.Fatalf("lines %q", got)
	}
	if h := lines[1]; h.Best != nil || h.Compare.BestTuner != "" || h.Progress != "10/120 games" {
		t.Errorf("the unrated comparison: %+v %+v", h, h.Compare)
	}
	lines, errs = ListLines(filepath.Join(root, "cmp"))
	if len(errs) > 0 || len(lines) != 1 || lines[0].Compare == nil || len(lines[0].Compare.Tuners) != 3 {
		t.Fatalf("the comparison as the folder: %+v %v", lines, errs)
	}
}

// TestComparisonRecord: a comparison is made once (fs.ErrExist after);
// while its writer holds it, it reads running; ended, as it ended; left
// running by a writer that is gone, interrupted.
func TestComparisonRecord(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "cmp") // the parent is made too
	rec := CompareRecord{Game: "nim", Algos: []string{"genetic", "spsa"}, BudgetGames: 10}
	c, err := CreateComparison(dir, rec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CreateComparison(dir, rec); !errors.Is(err, fs.ErrExist) {
		t.Errorf("made twice: %v, want fs.ErrExist", err)
	}
	if got, err := ReadCompareRecord(dir); err != nil || got.Status != StatusRunning || got.Created.IsZero() || !IsComparison(dir) {
		t.Errorf("while running: %+v %v", got, err)
	}
	if err := c.End(StatusRunning); err == nil {
		t.Error("End(running) accepted")
	}
	c.Close()
	if got, _ := ReadCompareRecord(dir); got.Status != StatusInterrupted {
		t.Errorf("its writer gone: %q, want interrupted", got.Status)
	}
	for _, status := range []Status{StatusFailed, StatusDone} {
		c := &Comparison{dir: dir, rec: rec}
		if err := c.End(status); err != nil {
			t.Fatal(err)
		}
		if got, _ := ReadCompareRecord(dir); got.Status != status || got.Ended.IsZero() {
			t.Errorf("ended %s: read %+v", status, got)
		}
	}
}

// TestComparisonRecordBad: a record that cannot be read, or says what
// cannot be, is refused naming the file, what is wrong and what is
// accepted; a directory without one is no comparison.
func TestComparisonRecordBad(t *testing.T) {
	cases := []struct{ data, want string }{
		{`{"game": "nim", "algos": ["genetic"]`, "unexpected end of JSON input (want the JSON record tune compare writes)"},
		{`{"game": "nim", "algos": [], "budget_games": 10, "status": "done"}`, "no algos (want the tuners compared"},
		{`{"game": "nim", "algos": ["spsa"], "budget_games": 0, "status": "done"}`, "budget_games 0 (want the positive games budget of each tuner)"},
		{`{"game": "nim", "algos": ["spsa", "spsa"], "budget_games": 5, "status": "done"}`, `algo "spsa" twice`},
		{`{"game": "nim", "algos": ["../x"], "budget_games": 5, "status": "done"}`, `algo "../x" (want a tuner's name`},
		{`{"game": "nim", "algos": ["spsa"], "budget_games": 5, "status": "paused"}`, `status "paused" (want running, done, failed or interrupted)`},
		{`{"algos": ["spsa"], "budget_games": 5, "status": "done"}`, "no game"},
	}
	for _, c := range cases {
		dir := t.TempDir()
		path := filepath.Join(dir, CompareName)
		os.WriteFile(path, []byte(c.data), 0o644)
		_, err := ReadCompareRecord(dir)
		if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrDamaged naming %s and %q", c.data, err, path, c.want)
		}
	}
	if _, err := ReadCompareRecord(t.TempDir()); !errors.Is(err, ErrNotComparison) {
		t.Errorf("no record: %v", err)
	}
}

// TestLegacyComparison: a comparison made before records were written
// (no compare.json; its table and its ladder's run) reads done, its
// tuners from its ladder's labels, in order.
func TestLegacyComparison(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "old")
	compareFixture(t, dir, true).Close()
	os.Remove(filepath.Join(dir, CompareName))
	if IsComparison(dir) {
		t.Fatal("no table, no record: a comparison")
	}
	os.WriteFile(filepath.Join(dir, "compare.txt"), []byte("table\n"), 0o644)
	v, err := OpenCompareView(dir)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(v.Record.Algos, ",") != "genetic,spsa" || v.Record.Status != StatusDone || v.Record.Game != "tictactoe" || v.Rows[0].Elo != 50 {
		t.Errorf("record %+v, rows %+v", v.Record, v.Rows)
	}
}
