package reports

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// termsConfig is a tiny tic-tac-toe run of algo (depth 1, a few
// generations), whose games are not all draws (two random plies open
// each), with a yardstick and a ladder.
func termsConfig(algo population.Algo) population.Config {
	c := population.Defaults()
	c.Game, c.Depth, c.Openings, c.Algo, c.Seed = "tictactoe", 1, "random:2", algo, 1
	c.YardstickPairs, c.LadderPairs = 1, 1
	c.Population, c.Generations, c.Games = 4, 3, 1
	c.Candidates, c.Rounds = 4, 3
	c.SPSAIterations, c.SPSABlock, c.SPSAREnd = 24, 4, 0.02
	c.CMAESGenerations, c.CMAESPairs = 3, 1
	c.TexelRounds, c.TexelGames = 3, 30
	c.BayesRounds, c.BayesPairs = 4, 2
	return c
}

// playRun plays a real run of cfg into a new run directory (SQLite), marks
// it done and loads it as the report does.
func playRun(t *testing.T, cfg population.Config) *Run {
	t.Helper()
	dir := filepath.Join(t.TempDir(), string(cfg.Algo))
	store, err := results.Create(dir, cfg.Marshal(), cfg.Game, string(cfg.Algo), cfg.Seed, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	g, _ := all.Find(cfg.Game)
	pool, _ := tournament.NewPool(1, 1)
	defer pool.Close()
	tu, err := population.NewTuner(cfg, g, nil, nil, pool, store)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tu.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := store.SetStatus(results.StatusDone); err != nil {
		t.Fatal(err)
	}
	store.Close()
	r, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// ownFigures are the figures of each tuner after the first, by name and
// the start of their titles.
var ownFigures = map[population.Algo][]string{
	population.Genetic:  {"coefficients Coefficients", "fitness Fitness", "diversity Diversity"},
	population.Knockout: {"winners Knockout", "distance Knockout"},
	population.SPSA:     {"spsa-theta SPSA: each parameter's theta", "spsa SPSA: each parameter's theta moved", "spsa-c SPSA: each parameter's c_k"},
	population.CMAES:    {"cmaes-sigma CMA-ES: the step sigma", "cmaes-mean CMA-ES: the mean"},
	population.Texel:    {"texel-loss Texel: the losses"},
	population.Bayes: {"bayes-optimum Bayes: the optimum's path", "bayes-path Bayes: the model's optimum",
		"bayes-landscape Bayes: the landscape", "bayes-pair Bayes: the model's mean Elo"},
}

// TestOwnTerms plays a small real run of every tuner and checks that each
// speaks in its own terms: its figures (Elo against games spent first, then
// its own, no genetic plot for the others), tune show's history table and
// the report's.
func TestOwnTerms(t *testing.T) {
	for _, algo := range []population.Algo{population.Genetic, population.Knockout, population.SPSA, population.CMAES, population.Texel, population.Bayes} {
		t.Run(string(algo), func(t *testing.T) {
			r := playRun(t, termsConfig(algo))
			checkFigures(t, r)
			var b bytes.Buffer
			WriteSummary(&b, &r.View, "runs/x")
			out := b.String()
			if algo != population.Genetic && algo != population.Knockout && strings.Contains(out, "diversity") {
				t.Errorf("%s: tune show speaks of diversity:\n%s", algo, out)
			}
			checkHistory(t, r, out)
			page, err := HTML(r)
			if err != nil {
				t.Fatal(err)
			}
			s := string(page)
			if !strings.Contains(s, `<table id="history">`) || !strings.Contains(s, "History in "+string(algo)+"'s terms") {
				t.Errorf("%s: the report has no history table", algo)
			}
			first := strings.Index(s, `<div class="figure" id="plot-`)
			if first < 0 || !strings.HasPrefix(s[first:], `<div class="figure" id="plot-elo"><h3>`+EloTitle) {
				t.Errorf("%s: the report's first figure is not Elo against games spent", algo)
			}
			// Above the fold: the first figure before any table, and once only.
			if table := strings.Index(s, "<table"); first > table || strings.Count(s, `id="plot-elo"`) != 1 {
				t.Errorf("%s: the first figure comes after a table (at %d, the first table at %d), or twice", algo, first, table)
			}
			// The config shows the running tuner's settings, no other's.
			for other, key := range map[population.Algo]string{population.SPSA: "spsa-c-end:", population.CMAES: "cmaes-sigma:",
				population.Texel: "texel-rounds:", population.Knockout: "best-of:", population.Bayes: "bayes-pairs:"} {
				if other != algo && strings.Contains(s, key) {
					t.Errorf("%s: the report's config has %s's %q", algo, other, key)
				}
			}
			if done := fmt.Sprintf("%d of %d %ss", len(r.Generations), len(r.Generations), r.Config.GenerationName()); !strings.Contains(s, done) {
				t.Errorf("%s: the finished report does not say %q", algo, done)
			}
		})
	}
}

// checkFigures checks the run's figures by name and title: Elo against
// games spent first, then the tuner's own, each drawn to a PNG.
func checkFigures(t *testing.T, r *Run) {
	t.Helper()
	figs, err := r.Figures()
	if err != nil {
		t.Fatal(err)
	}
	want := append([]string{"elo " + EloTitle}, ownFigures[r.Config.Algo]...)
	if len(figs) != len(want) {
		t.Fatalf("%s: %d figures, want %d (%v)", r.Config.Algo, len(figs), len(want), want)
	}
	for i, f := range figs {
		name, title, _ := strings.Cut(want[i], " ")
		if f.Name != name || !strings.HasPrefix(f.Title, title) {
			t.Errorf("%s: figure %d is %s %q, want %s %q...", r.Config.Algo, i, f.Name, f.Title, name, title)
		}
		data, err := f.PNG()
		if err != nil {
			t.Fatal(err)
		}
		if img, err := png.Decode(bytes.NewReader(data)); err != nil || img.Bounds().Dx() != int(f.Width.Dots(96)+0.5) {
			t.Errorf("%s: %s does not decode at its width: %v", r.Config.Algo, f.Name, err)
		}
	}
}

// table returns the rows of the text table whose title starts with title
// in out, each cut into its cells (two spaces or more apart), the heads
// first.
func table(t *testing.T, out, title string) [][]string {
	t.Helper()
	i := strings.Index(out, "\n"+title)
	if i < 0 {
		t.Fatalf("no table %q in\n%s", title, out)
	}
	var rows [][]string
	lines := strings.Split(out[i+1:], "\n")[1:]
	for _, l := range lines {
		if !strings.HasPrefix(l, "  ") {
			break
		}
		rows = append(rows, regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(l), -1))
	}
	return rows
}

// checkHistory checks tune show's history table of r against values
// computed here from what the run recorded.
func checkHistory(t *testing.T, r *Run, out string) {
	t.Helper()
	hist := r.Generations
	switch r.Config.Algo {
	case population.SPSA:
		checkSPSAHistory(t, r, out)
	case population.CMAES:
		rows := table(t, out, "CMA-ES: sigma and the mean's move by generation")
		wantHead(t, rows[0], "generation", "sigma", "mean moved", "best candidate", "candidates")
		pop := 4 + int(3*math.Log(4)) // gonum's default for tic-tac-toe's 4 features
		for i, g := range hist {
			sum := 0.0
			for _, sd := range g.Std {
				sum += (sd / 10) * (sd / 10) // every range is [-5, 5]
			}
			sigma := math.Sqrt(sum / 4 * float64(pop) / float64(pop-1))
			want := []string{fmt.Sprint(i + 1), fmt.Sprintf("%.4f", sigma), fmt.Sprintf("%.4f", g.Distance), fmt.Sprintf("%.3f", g.BestFitness), fmt.Sprintf("%.3f", g.MeanFitness)}
			wantRow(t, rows[i+1], want...)
			if i == 0 && (sigma < 0.07 || sigma > 0.13) {
				t.Errorf("the first generation's sigma is %.4f, want about cmaes-sigma %g", sigma, r.Config.CMAESSigma)
			}
		}
		mean := table(t, out, "CMA-ES: the mean at a few generations")
		wantHead(t, mean[0], "feature", "start", "generation 1", "generation 2", "generation 3")
		last := hist[len(hist)-1]
		for _, x := range last.Genomes {
			if x.ID == last.Best {
				wantRow(t, mean[1], "open-mine", "1", mean[1][2], mean[1][3], NumberText(x.Weights[0]))
			}
		}
	case population.Texel:
		rows := table(t, out, "Texel: losses by round")
		wantHead(t, rows[0], "round", "training loss", "held-out loss", "start's held-out loss", "gate (fit's score)", "fit", "champion")
		for i, g := range hist {
			held, verdict := -g.BestFitness, "accepted"
			if g.Best != g.Index+1 {
				held, verdict = -g.Genomes[1].Fitness, "refused"
			}
			gate := "-"
			for _, x := range g.Genomes {
				if x.ID == g.Index+1 && x.Games() > 0 {
					gate = fmt.Sprintf("%.1f%% (%d-%d-%d)", 100*x.Score(), x.Wins, x.Draws, x.Losses)
				}
			}
			wantRow(t, rows[i+1], fmt.Sprint(i+1), fmt.Sprintf("%.5f", -g.MeanFitness), fmt.Sprintf("%.5f", held), fmt.Sprintf("%.5f", -g.WorstFitness), gate, verdict, fmt.Sprint(g.Best))
		}
	case population.Bayes:
		checkBayesHistory(t, r, out)
	case population.Knockout:
		rows := table(t, out, "Knockout: winners by round")
		wantHead(t, rows[0], "round", "winner", "final", "score", "moved")
		for i, g := range hist {
			wantRow(t, rows[i+1], fmt.Sprint(i+1), fmt.Sprint(g.Best), rows[i+1][2], fmt.Sprintf("%.3f", g.BestFitness), fmt.Sprintf("%.3f", g.Distance))
		}
	default:
		// The score fitness shown as the points a game behind it (without 0.01).
		rows := table(t, out, "Genetic tuner: fitness (points a game) and diversity by generation")
		wantHead(t, rows[0], "generation", "best", "best fitness", "mean fitness", "worst fitness", "diversity")
		for i, g := range hist {
			wantRow(t, rows[i+1], fmt.Sprint(i+1), fmt.Sprint(g.Best), fmt.Sprintf("%.3f", g.BestFitness-0.01), fmt.Sprintf("%.3f", g.MeanFitness-0.01),
				fmt.Sprintf("%.3f", g.WorstFitness-0.01), fmt.Sprintf("%.3f", g.Diversity))
		}
	}
}

// checkSPSAHistory: SPSA's table gives theta per parameter at the end of
// a few blocks (the first and the last among them), ± c_k = c_end *
// (N/k)^gamma computed here by hand (c_end is spsa-c-end of tic-tac-toe's
// ranges of 10).
func checkSPSAHistory(t *testing.T, r *Run, out string) {
	t.Helper()
	rows := table(t, out, "SPSA: theta at a few iterations k")
	head := rows[0]
	if len(head) != 7 || head[0] != "parameter" || head[1] != "start" || head[2] != "k=4" || head[6] != "k=24" {
		t.Fatalf("SPSA's table heads %v, want parameter, start and 5 iterations from k=4 to k=24", head)
	}
	cfg := r.Config
	cEnd := cfg.SPSACEnd * 10
	moved := false
	for f, name := range []string{"open-mine", "open-theirs", "threats-mine", "threats-theirs"} {
		want := []string{name, NumberText(r.Evaluator.Features[f].Default)}
		for _, h := range head[2:] {
			var k int
			fmt.Sscanf(h, "k=%d", &k)
			g := r.Generations[k/cfg.SPSABlock-1]
			ck := cEnd * math.Pow(float64(cfg.SPSAIterations)/float64(k), cfg.SPSAGamma)
			want = append(want, NumberText(g.Mean[f])+" ±"+NumberText(ck))
			moved = moved || g.Mean[f] != r.Evaluator.Features[f].Default
		}
		wantRow(t, rows[f+1], want...)
	}
	if !moved {
		t.Error("theta never moved: the table's values checked nothing")
	}
}

// checkBayesHistory: Bayes' tables give each round's candidate, the Elo
// observed and the model's optimum, and the optimum per parameter at a
// few rounds with its length scale, from what the run recorded: the
// candidate's record and the round's fields as population.BayesRoundOf
// names them, every feature of tic-tac-toe tuned (ranges of 10).
func checkBayesHistory(t *testing.T, r *Run, out string) {
	t.Helper()
	rows := table(t, out, "Bayes: each round's candidate")
	wantHead(t, rows[0], "round", "candidate", "observed", "record", "champion", "optimum", "moved")
	for i, g := range r.Generations {
		var c population.Genome
		for _, x := range g.Genomes {
			if x.ID == 2*i+1 {
				c = x
			}
		}
		wantRow(t, rows[i+1], fmt.Sprint(i+1), fmt.Sprint(2*i+1), fmt.Sprintf("%+.0f ± %.0f", g.MeanFitness, g.WorstFitness),
			fmt.Sprintf("%d-%d-%d", c.Wins, c.Draws, c.Losses), fmt.Sprint(g.Best), fmt.Sprintf("%+.0f ± %.0f", g.BestFitness, g.Diversity), fmt.Sprintf("%.3f", g.Distance))
		if c.Games() != 2*r.Config.BayesPairs {
			t.Errorf("round %d: the candidate played %d games, want %d", i+1, c.Games(), 2*r.Config.BayesPairs)
		}
	}
	opt := table(t, out, "Bayes: the model's optimum at a few rounds")
	wantHead(t, opt[0], "parameter", "start", "round 1", "round 2", "round 3", "round 4", "length scale")
	last := r.Generations[len(r.Generations)-1]
	for f, feat := range r.Evaluator.Features {
		want := []string{feat.Name, NumberText(feat.Default)}
		for _, g := range r.Generations {
			want = append(want, NumberText(g.Mean[f]))
		}
		wantRow(t, opt[f+1], append(want, fmt.Sprintf("%.3f", last.Std[f]/10))...)
	}
}

func wantHead(t *testing.T, got []string, want ...string) {
	t.Helper()
	wantRow(t, got, want...)
}

func wantRow(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("row\n  %s\nwant\n  %s", strings.Join(got, " | "), strings.Join(want, " | "))
	}
}

// TestLegendBesideLines: the legend of SPSA's figures (and every figure
// of a tuner's own but the genetic ones) stands to the right of the plot
// area: no line of the plot reaches the column of its entries, only the
// entries' short thumbnails.
func TestLegendBesideLines(t *testing.T) {
	r := playRun(t, termsConfig(population.SPSA))
	figs, err := r.Figures()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figs {
		var rec recorder.Canvas
		f.draw(draw.NewCanvas(&rec, f.Width, f.Height))
		entries := map[string]bool{"open-mine": true, "threats-theirs": true, "every parameter": true, "champion, by the yardstick": true}
		legend, lines := math.Inf(1), math.Inf(-1)
		for _, a := range rec.Actions {
			switch a := a.(type) {
			case *recorder.FillString:
				if entries[a.String] {
					legend = math.Min(legend, float64(a.Point.X))
				}
			case *recorder.Stroke:
				lo, hi := math.Inf(1), math.Inf(-1)
				for _, c := range a.Path {
					if c.Type == vg.MoveComp || c.Type == vg.LineComp {
						lo, hi = math.Min(lo, float64(c.Pos.X)), math.Max(hi, float64(c.Pos.X))
					}
				}
				if hi-lo > 25 { // longer than a legend's thumbnail (20 points)
					lines = math.Max(lines, hi)
				}
			}
		}
		if math.IsInf(legend, 1) {
			t.Fatalf("%s: no legend entry drawn", f.Name)
		}
		if lines >= legend-25 {
			t.Errorf("%s: a line reaches x = %.0f, the legend's entries start at %.0f: the legend covers the plot", f.Name, lines, legend)
		}
	}
}
