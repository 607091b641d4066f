package reports

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/tournament"
)

// Terms describes generation g of a run of cfg tuning ev in its tuner's
// own terms, for a line (the terminal's line per generation): the genetic
// tuner's fitness and diversity; knockout's winner, its final and its
// move; SPSA's iterations, c_k and a_k and theta's largest moves (from
// before, theta at the start of the block; nil when not known: the
// recorded start for the first block, no moves after it); CMA-ES's sigma,
// its mean's move and its candidates' scores against the mean; Texel's
// losses and whether the round accepted its fit; Bayes' candidate as
// observed and the model's optimum with its sd.
func Terms(cfg population.Config, ev *games.Evaluator, before []float64, g population.Generation) string {
	switch cfg.Algo {
	case population.Bayes:
		return bayesTerms(g)
	case population.Knockout:
		return fmt.Sprintf("winner genome %d%s, %.3f of the points over its matches, moved %.3f", g.Best, final(g), g.BestFitness, g.Distance)
	case population.SPSA:
		return spsaTerms(cfg, ev, before, g)
	case population.CMAES:
		return fmt.Sprintf("sigma %.4f of each range, mean moved %.4f, best candidate scored %.3f against the mean (the candidates %.3f)",
			population.CMAESSigma(ev, g, cfg.CMAESCandidates(ev)), g.Distance, g.BestFitness, g.MeanFitness)
	case population.Texel:
		l := population.TexelLossesOf(g)
		s := fmt.Sprintf("training loss %.5f, held-out loss %.5f (the start's %.5f), ", l.Train, l.Held, l.HeldStart)
		if l.Gate.Games() > 0 {
			s += fmt.Sprintf("gate %.1f%% (%d-%d-%d) against the round's start, ", 100*l.Gate.Score(), l.Gate.Wins, l.Gate.Draws, l.Gate.Losses)
		}
		if l.Accepted {
			return s + "fit accepted"
		}
		return s + fmt.Sprintf("fit refused: kept genome %d", l.Champion)
	}
	if cfg.Fitness == "exp" {
		return fmt.Sprintf("best genome %d fitness %.3f %s (mean %.3f), diversity %.3f", g.Best, g.BestFitness, cfg.FitnessUnit(), g.MeanFitness, g.Diversity)
	}
	return fmt.Sprintf("best genome %d scored %.3f points a game (mean %.3f), diversity %.3f", g.Best,
		cfg.ShownFitness(g.BestFitness), cfg.ShownFitness(g.MeanFitness), g.Diversity)
}

// final describes the last match of knockout round g's bracket from its
// winner's side: " (won the final 3-2)"; "" when there is none.
func final(g population.Generation) string {
	if len(g.Matches) == 0 {
		return ""
	}
	m := slices.MaxFunc(g.Matches, func(a, b tournament.BracketMatch) int { return a.Round - b.Round })
	switch {
	case m.B == tournament.Bye:
		return ""
	case m.Winner == m.A:
		return fmt.Sprintf(" (won the final %g-%g)", m.ScoreA, m.ScoreB)
	case m.Winner == m.B:
		return fmt.Sprintf(" (won the final %g-%g)", m.ScoreB, m.ScoreA)
	}
	return ""
}

// spsaTerms is Terms for an SPSA block.
func spsaTerms(cfg population.Config, ev *games.Evaluator, before []float64, g population.Generation) string {
	k := cfg.SPSAIterationsDone(g.Index)
	first := g.Index*max(cfg.SPSABlock, 1) + 1
	s := fmt.Sprintf("iterations %d-%d of %d", first, k, cfg.SPSAIterations)
	if first == k {
		s = fmt.Sprintf("iteration %d of %d", k, cfg.SPSAIterations)
	}
	steps, err := population.SPSAStepsAt(cfg, ev, k)
	if err != nil {
		return s
	}
	s += ", c_k " + spread(steps, func(x population.SPSAStep) float64 { return x.C }) +
		", a_k " + spread(steps, func(x population.SPSAStep) float64 { return x.A })
	if before == nil && g.Index > 0 {
		return s
	}
	type move struct {
		name       string
		by, weight float64 // the move, and it as a fraction of the range
	}
	var moves []move
	for _, x := range steps {
		from := x.Start
		if before != nil {
			from = before[x.Feature]
		}
		f := ev.Features[x.Feature]
		if d := g.Mean[x.Feature] - from; d != 0 && f.Max > f.Min {
			moves = append(moves, move{x.Name, d, math.Abs(d) / (f.Max - f.Min)})
		}
	}
	if len(moves) == 0 {
		return s + ", theta did not move"
	}
	slices.SortStableFunc(moves, func(a, b move) int { return cmpDesc(a.weight, b.weight) })
	var parts []string
	for _, m := range moves[:min(3, len(moves))] {
		parts = append(parts, fmt.Sprintf("%s %+.3g", m.name, m.by))
	}
	return s + ", theta moved most: " + strings.Join(parts, ", ")
}

// cmpDesc orders larger first.
func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// spread writes a value the parameters share ("0.52"), or the least and
// the most of it when they differ ("0.26 to 0.52").
func spread(steps []population.SPSAStep, of func(population.SPSAStep) float64) string {
	lo, hi := bounds(steps, of)
	if lo == hi {
		return fmt.Sprintf("%.3g", hi)
	}
	return fmt.Sprintf("%.3g to %.3g", lo, hi)
}

// bounds is the least and the most of a value of the parameters, equal
// when they differ by float noise alone.
func bounds(steps []population.SPSAStep, of func(population.SPSAStep) float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range steps {
		lo, hi = math.Min(lo, of(s)), math.Max(hi, of(s))
	}
	if hi-lo <= 1e-9*math.Abs(hi) {
		lo = hi
	}
	return lo, hi
}

// Table is a run's history in its tuner's own terms, the same in tune
// show (text) and the report (HTML): a title, column heads and rows.
type Table struct {
	ID    string // the HTML table's id
	Title string
	Head  []string
	Rows  [][]string
}

// History returns the run's history in its tuner's own terms: the
// genetic tuner's fitness and diversity and knockout's winners per
// generation (round), Texel's losses per round, CMA-ES's sigma per
// generation and its mean at a few generations, SPSA's theta at a few
// iterations with its c_k, Bayes' rounds and its optimum at a few of
// them. A table of generations has at most rows rows,
// a table of weights at most points columns of them (evenly spaced, the
// first and the last kept; 0: every generation).
func (r *Run) History(rows, points int) []Table {
	switch r.Config.Algo {
	case population.Knockout:
		return []Table{r.knockoutTable(pick(len(r.Generations), rows))}
	case population.SPSA:
		return []Table{r.spsaTable(pick(len(r.Generations), points))}
	case population.CMAES:
		return []Table{r.cmaesTable(pick(len(r.Generations), rows)), r.meanTable(pick(len(r.Generations), points))}
	case population.Texel:
		return []Table{r.texelTable(pick(len(r.Generations), rows))}
	case population.Bayes:
		return []Table{r.bayesTable(pick(len(r.Generations), rows)), r.bayesOptimumTable(pick(len(r.Generations), points))}
	}
	return []Table{r.geneticTable(pick(len(r.Generations), rows))}
}

// pick chooses at most most of n indices, evenly spaced, the first and
// the last among them; every index when most is 0 or n at most most.
func pick(n, most int) []int {
	out := make([]int, 0, n)
	if most <= 0 || n <= most {
		for i := range n {
			out = append(out, i)
		}
		return out
	}
	for j := range most {
		i := int(math.Round(float64(j) * float64(n-1) / float64(most-1)))
		if len(out) == 0 || out[len(out)-1] != i {
			out = append(out, i)
		}
	}
	return out
}

func (r *Run) geneticTable(idx []int) Table {
	c, unit := r.Config, r.Config.FitnessUnit()
	t := Table{ID: "history", Title: "Genetic tuner: fitness (" + unit + ") and diversity by generation",
		Head: []string{"generation", "best", "best fitness", "mean fitness", "worst fitness", "diversity"}}
	for _, i := range idx {
		g := r.Generations[i]
		t.Rows = append(t.Rows, []string{fmt.Sprint(GenerationNumber(g.Index)), fmt.Sprint(g.Best),
			fmt.Sprintf("%.3f", c.ShownFitness(g.BestFitness)), fmt.Sprintf("%.3f", c.ShownFitness(g.MeanFitness)),
			fmt.Sprintf("%.3f", c.ShownFitness(g.WorstFitness)), fmt.Sprintf("%.3f", g.Diversity)})
	}
	return t
}

func (r *Run) knockoutTable(idx []int) Table {
	t := Table{ID: "history", Title: "Knockout: winners by round (score: the winner's points per game over its matches; moved: the normalised distance from the previous winner)",
		Head: []string{"round", "winner", "final", "score", "moved"}}
	for _, i := range idx {
		g := r.Generations[i]
		fin := strings.TrimSuffix(strings.TrimPrefix(final(g), " (won the final "), ")")
		if fin == "" {
			fin = "-"
		}
		t.Rows = append(t.Rows, []string{fmt.Sprint(GenerationNumber(g.Index)), fmt.Sprint(g.Best), fin,
			fmt.Sprintf("%.3f", g.BestFitness), fmt.Sprintf("%.3f", g.Distance)})
	}
	return t
}

func (r *Run) texelTable(idx []int) Table {
	t := Table{ID: "history", Title: "Texel: losses by round (mean squared errors with the round's K)",
		Head: []string{"round", "training loss", "held-out loss", "start's held-out loss", "gate (fit's score)", "fit", "champion"}}
	for _, i := range idx {
		g := r.Generations[i]
		l := population.TexelLossesOf(g)
		verdict := "accepted"
		if !l.Accepted {
			verdict = "refused"
		}
		gate := "-"
		if l.Gate.Games() > 0 {
			gate = fmt.Sprintf("%.1f%% (%d-%d-%d)", 100*l.Gate.Score(), l.Gate.Wins, l.Gate.Draws, l.Gate.Losses)
		}
		t.Rows = append(t.Rows, []string{fmt.Sprint(GenerationNumber(g.Index)), fmt.Sprintf("%.5f", l.Train), fmt.Sprintf("%.5f", l.Held),
			fmt.Sprintf("%.5f", l.HeldStart), gate, verdict, fmt.Sprint(l.Champion)})
	}
	return t
}

func (r *Run) cmaesTable(idx []int) Table {
	t := Table{ID: "history", Title: "CMA-ES: sigma and the mean's move by generation (sigma and moved: fractions of each range; scores: against the mean)",
		Head: []string{"generation", "sigma", "mean moved", "best candidate", "candidates"}}
	pop := r.Config.CMAESCandidates(r.Evaluator)
	for _, i := range idx {
		g := r.Generations[i]
		t.Rows = append(t.Rows, []string{fmt.Sprint(GenerationNumber(g.Index)), fmt.Sprintf("%.4f", population.CMAESSigma(r.Evaluator, g, pop)),
			fmt.Sprintf("%.4f", g.Distance), fmt.Sprintf("%.3f", g.BestFitness), fmt.Sprintf("%.3f", g.MeanFitness)})
	}
	return t
}

// meanTable is CMA-ES's mean (each generation's champion) per searched
// feature at the generations idx, from its start.
func (r *Run) meanTable(idx []int) Table {
	t := Table{ID: "history-mean", Title: "CMA-ES: the mean at a few generations", Head: []string{"feature", "start"}}
	for _, i := range idx {
		t.Head = append(t.Head, fmt.Sprintf("%s %d", r.stage(), GenerationNumber(r.Generations[i].Index)))
	}
	start, _ := r.Config.StartOrDefaults(r.Evaluator)
	for f, feat := range r.Evaluator.Features {
		if feat.Max <= feat.Min {
			continue
		}
		row := []string{feat.Name, "-"}
		if start != nil {
			row[1] = NumberText(start[f])
		}
		for _, i := range idx {
			cell := "-"
			if w := champion(r.Generations[i]); w != nil {
				cell = NumberText(w[f])
			}
			row = append(row, cell)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// spsaTable is SPSA's theta per parameter at the end of the blocks idx,
// each with its c_k (the perturbation of the block's last iteration k).
func (r *Run) spsaTable(idx []int) Table {
	t := Table{ID: "history", Title: "SPSA: theta at a few iterations k, ± c_k (the perturbation at k: c_k = c_end (N/k)^gamma)",
		Head: []string{"parameter", "start"}}
	steps, err := population.SPSAStepsAt(r.Config, r.Evaluator, 1)
	if err != nil {
		return t
	}
	at := make([][]population.SPSAStep, len(idx))
	for j, i := range idx {
		k := r.Config.SPSAIterationsDone(r.Generations[i].Index)
		t.Head = append(t.Head, fmt.Sprintf("k=%d", k))
		at[j], _ = population.SPSAStepsAt(r.Config, r.Evaluator, k)
	}
	for p, s := range steps {
		row := []string{s.Name, NumberText(s.Start)}
		for j, i := range idx {
			row = append(row, fmt.Sprintf("%s ±%s", NumberText(r.Generations[i].Mean[s.Feature]), NumberText(at[j][p].C)))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// writeTables writes tables as text, each its title and its rows aligned.
func writeTables(w io.Writer, tables []Table) {
	for _, t := range tables {
		fmt.Fprintf(w, "%s:\n", t.Title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "  %s\n", strings.Join(t.Head, "\t"))
		for _, row := range t.Rows {
			fmt.Fprintf(tw, "  %s\n", strings.Join(row, "\t"))
		}
		tw.Flush()
	}
}
