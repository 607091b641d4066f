package main

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
)

// countingSources counts the plans resolved: population.Resolve finds
// the config's game once.
type countingSources struct {
	population.Sources
	games *int
}

func (c countingSources) Game(name string) (games.Game, error) {
	*c.games++
	return c.Sources.Game(name)
}

// TestRunValidatesOnce: one tune run validates its config once. Resolve
// validates it (population's TestValidatedOnce: nothing made from the
// plan validates again); tune run resolves one plan, and neither the
// commands nor tuning validate a config or make a tuner but from a plan.
func TestRunValidatesOnce(t *testing.T) {
	resolved := 0
	defer func(s population.Sources) { planSources = s }(planSources)
	planSources = countingSources{planSources, &resolved}
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, errOut := tune(t, "", "run", "--game", "tictactoe", "--depth", "1", "--population", "4", "--generations", "2", "--games", "1", "--yardstick-pairs", "1", "--out", dir, "--quiet"); code != 0 {
		t.Fatal(errOut)
	}
	if resolved != 1 {
		t.Errorf("tune run resolved %d plans, want 1", resolved)
	}
	for _, pkg := range []string{".", filepath.Join("..", "..", "tuning")} {
		files, err := filepath.Glob(filepath.Join(pkg, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if s, ok := n.(*ast.SelectorExpr); ok {
					switch s.Sel.Name {
					case "Validate", "NewTuner", "NewEngineTuner":
						t.Errorf("%s calls %s: a run's config is validated once, by population.Resolve", name, s.Sel.Name)
					}
				}
				return true
			})
		}
	}
}

// TestRunFlags: tune run has a flag for every key of a config, with the
// key's help.
func TestRunFlags(t *testing.T) {
	c := newRunCommand(&globalOptions{})
	for _, k := range population.Keys {
		if f := c.Flags().Lookup(k.FlagName()); f == nil || f.Usage != k.Help {
			t.Errorf("key %s: flag --%s %+v", k.Name, k.FlagName(), f)
		}
	}
	if typ := c.Flags().Lookup("algo").Value.Type(); typ != "algo" {
		t.Errorf("--algo is a %s", typ)
	}
}

// TestSPSAParamsBadInput: every bad parameter line is refused with its
// line number, exit 2, before a run directory is made.
func TestSPSAParamsBadInput(t *testing.T) {
	dir := t.TempDir()
	for i, tc := range []struct {
		lines, want string
	}{
		{"open-mine, float, 1, -2, 4, 1, 0.002\nthreats-mine, float, 1, 3, 2, 1, 0.002\n", "line 2: threats-mine: min 3 > max 2"},
		{"open-mine, float, 1, -2, 4, 0, 0.002\n", "line 1: open-mine: c_end 0 must be > 0"},
		{"# comment\nkings, int, 1, 0, 4, 1, 0.002\n", `line 2: unknown parameter "kings"`},
		{"open-mine, float, 1, -2, 4, 1, 0.002\nopen-mine, float, 1, -2, 4, 1, 0.002\n", `line 2: parameter "open-mine" appears twice (first on line 1)`},
	} {
		file := filepath.Join(dir, "p"+string(rune('a'+i))+".txt")
		if err := os.WriteFile(file, []byte(tc.lines), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "run"+string(rune('a'+i)))
		code, _, errOut := tune(t, "", "run", "--game", "tictactoe", "--algo", "spsa", "--spsa-params", file, "--out", out)
		if code != 2 || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, file) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", tc.lines, code, errOut, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: a run directory was made", tc.lines)
		}
	}
	code, _, errOut := tune(t, "", "run", "--game", "tictactoe", "--algo", "spsa", "--budget-games", "1", "--out", filepath.Join(dir, "tiny"))
	if code != 2 || !strings.Contains(errOut, "too small for one SPSA iteration") {
		t.Errorf("budget of 1 game: exit %d, %q", code, errOut)
	}
	// Bayes says plainly that it models at most 20 parameters, before a
	// run directory is made.
	code, _, errOut = tune(t, "", "run", "--game", "chess", "--algo", "bayes", "--out", filepath.Join(dir, "bayes"))
	if code != 2 || !strings.Contains(errOut, "at most 20 parameters, and evaluator textbook has 23") {
		t.Errorf("bayes of 23 parameters: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "bayes")); err == nil {
		t.Error("bayes of 23 parameters: a run directory was made")
	}
}

// TestSPSARunCLI: a short SPSA run from a parameter file ends with a best.
func TestSPSARunCLI(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "params.txt")
	os.WriteFile(file, []byte("open-mine, float, 1, -2, 4, 1, 0.5\n"), 0o644)
	code, out, errOut := tune(t, "", "--quiet", "run", "--game", "tictactoe", "--algo", "spsa", "--spsa-params", file,
		"--spsa-iterations", "8", "--spsa-block", "4", "--depth", "2", "--openings", "start", "--yardstick-pairs", "1", "--out", filepath.Join(dir, "run"))
	if code != 0 || !strings.Contains(out, "2 blocks") || !strings.Contains(out, "best:") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
}

// TestKillAndResumeTuners: an SPSA run, a Texel run and a Bayes run killed
// (SIGKILL) in the middle of their games and resumed, with another number
// of workers, end with the generations and the export of an uninterrupted
// run.
func TestKillAndResumeTuners(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs several processes")
	}
	bin := buildTune(t)
	for _, tc := range []struct {
		algo  string
		stage string
		args  []string
	}{
		{"spsa", population.StageSPSA, []string{"--spsa-iterations", "48", "--spsa-block", "12", "--spsa-r-end", "0.05"}},
		{"texel", population.StageTexel, []string{"--texel-rounds", "3", "--texel-games", "24", "--texel-opening-plies", "6"}},
		{"bayes", population.StageBayes, []string{"--bayes-rounds", "8", "--bayes-pairs", "3", "--start", "random"}},
	} {
		t.Run(tc.algo, func(t *testing.T) {
			root := t.TempDir()
			args := func(out string, workers int) []string {
				return append([]string{"run", "--game", "othello", "--evaluator", "report", "--depth", "2", "--algo", tc.algo,
					"--yardstick-pairs", "2", "--openings", "random:6", "--seed", "7", "--workers", strconv.Itoa(workers), "--quiet", "--out", out}, tc.args...)
			}
			want := filepath.Join(root, "whole")
			if out, err := exec.Command(bin, args(want, 2)...).CombinedOutput(); err != nil {
				t.Fatalf("uninterrupted run: %v\n%s", err, out)
			}
			dir := filepath.Join(root, "killed")
			kills := 0
			if runUntil(t, bin, args(dir, 2), dir, func(r *results.Run) bool {
				n, err := r.CountGames(tc.stage, 1)
				return err == nil && n >= 3
			}) {
				kills++
			}
			if runUntil(t, bin, []string{"resume", dir, "--quiet", "--workers", "1"}, dir, func(r *results.Run) bool {
				n, err := r.CountGames(tc.stage, 2)
				return err == nil && n >= 2
			}) {
				kills++
			}
			if out, err := exec.Command(bin, "resume", dir, "--quiet", "--workers", "2").CombinedOutput(); err != nil {
				t.Fatalf("final resume: %v\n%s", err, out)
			}
			if kills < 1 {
				t.Fatal("no kill landed before the run finished")
			}
			if got, exp := exportCSV(t, bin, dir), exportCSV(t, bin, want); got != exp {
				t.Fatalf("resumed history differs from the uninterrupted one:\n%s\nwant:\n%s", got, exp)
			}
			a, b := generations(t, dir), generations(t, want)
			if !reflect.DeepEqual(a, b) {
				t.Fatal("resumed generations differ from the uninterrupted ones")
			}
			t.Logf("%d kills, resumed to the identical result", kills)
		})
	}
}

// TestCompare: tune compare runs every tuner on a small budget, rates
// their champions in one ladder, prints the table and draws the plot.
func TestCompare(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cmp")
	code, out, errOut := tune(t, "", "--quiet", "compare", "--game", "tictactoe", "--budget-games", "40", "--depth", "2",
		"--pairs", "1", "--champions", "2", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, algo := range []string{"genetic", "knockout", "spsa", "cmaes", "texel"} {
		if !strings.Contains(out, "\n"+algo+" ") {
			t.Errorf("no row for %s in\n%s", algo, out)
		}
		if _, err := os.Stat(filepath.Join(dir, algo, "report.html")); err != nil {
			t.Errorf("%s: %v", algo, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "compare.png")); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = tune(t, "", "compare", "--game", "tictactoe", "--budget-games", "40", "--algos", "genetic,annealing", "--out", dir+"2")
	if code != 2 || !strings.Contains(errOut, `unknown algo "annealing"`) {
		t.Errorf("unknown algo: exit %d, %s", code, errOut)
	}
}

// TestRandomStartCLI: --start random records one vector drawn from the
// seed as the start weights; tuning from it must beat the defaults, so the
// ladder rates no "start" and the best is measured against the defaults.
func TestRandomStartCLI(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	code, out, errOut := tune(t, "", "--quiet", "run", "--game", "tictactoe", "--algo", "spsa", "--start", "random", "--seed", "9",
		"--spsa-iterations", "8", "--spsa-block", "4", "--depth", "2", "--openings", "start", "--yardstick-pairs", "1", "--ladder-pairs", "1", "--out", run)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	data, err := os.ReadFile(filepath.Join(run, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := population.ParseConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := findGame("tictactoe")
	ev, _ := games.FindEvaluator(g, cfg.Evaluator)
	want := population.RandomStart(ev, 9)
	for i, f := range ev.Features {
		if cfg.StartWeights[f.Name] != want[i] {
			t.Errorf("start %s = %g, want %g (drawn from seed 9)", f.Name, cfg.StartWeights[f.Name], want[i])
		}
	}
	_, out, _ = tune(t, "", "show", run, "--json")
	var show struct {
		Best struct {
			Reference string `json:"reference"`
		} `json:"best"`
		Ladder struct {
			Entries []struct {
				Label   string             `json:"label"`
				Weights map[string]float64 `json:"weights"`
			} `json:"entries"`
		} `json:"ladder"`
	}
	if err := json.Unmarshal([]byte(out), &show); err != nil {
		t.Fatal(err)
	}
	if show.Best.Reference != "defaults" || len(show.Ladder.Entries) < 2 {
		t.Fatalf("best against %q, ladder %+v; want the defaults as reference:\n%s", show.Best.Reference, show.Ladder.Entries, out)
	}
	// The random start is rated: as "start", or as a champion with its
	// weights (generation 0's, when SPSA's first block left theta there).
	rated := false
	for _, e := range show.Ladder.Entries {
		if e.Label == "start" || reflect.DeepEqual(e.Weights, cfg.StartWeights) {
			rated = true
		}
	}
	if !rated {
		t.Errorf("the random start %v is not on the ladder: %+v", cfg.StartWeights, show.Ladder.Entries)
	}
}
