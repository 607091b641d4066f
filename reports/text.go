package reports

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
)

// WriteSummary writes the run's summary as text for a terminal (tune
// show): its record and progress, the best with what its gain cost and
// its weights, its verification, the ladder, the yardstick per
// generation and the run's history in its tuner's own terms (Run.History:
// at most 12 generations, weights at 5 of them). dir names the run in the
// first line.
func WriteSummary(w io.Writer, v *results.View, dir string) {
	s, in := v.JSON(), v.Info
	fmt.Fprintf(w, "run %s: %s %s, evaluator %s, seed %d\n", dir, in.Game, in.Algo, s.Evaluator, in.Seed)
	fmt.Fprintf(w, "status %s, progress %s, %d games, %.1f s running", in.Status, s.Progress, in.Games, in.Seconds)
	if in.Seconds > 0 {
		fmt.Fprintf(w, " (%.1f games/s)", float64(in.Games)/in.Seconds)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "plan: %s\n", Plan(v.Config))
	for _, o := range s.Opponents {
		if strings.HasSuffix(o.Name, " "+o.Spec) {
			fmt.Fprintf(w, "opponent %s\n", o.Name) // a built-in named by its spec
		} else {
			fmt.Fprintf(w, "opponent %s: %s\n", o.Name, o.Spec)
		}
	}
	if s.BudgetNote != "" {
		fmt.Fprintf(w, "note: %s\n", s.BudgetNote)
	}
	if c := v.Best; s.Best != nil {
		fmt.Fprintf(w, "best: %s\n", c.Summary())
		if c.Confident && c.Elo > 0 {
			fmt.Fprintf(w, "cost of the gain: %.0f games and %.1f s per Elo (%d games, %.0f s)\n", float64(s.GamesPerElo), float64(s.SecondsPerElo), s.Spent, in.Seconds)
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  feature\tweight\trange\tdefault")
		for _, x := range s.Weights {
			fmt.Fprintf(tw, "  %s\t%g\t[%g, %g]\t%g\n", x.Name, x.Value, x.Min, x.Max, x.Default)
		}
		tw.Flush()
	}
	writeVerification(w, v.Verification)
	if v.Ladder != nil {
		WriteLadder(w, v.Ladder)
	}
	writeYardstick(w, v.Config.GenerationName(), v.Generations, v.Config.OpponentNames())
	if len(v.Generations) > 0 {
		writeTables(w, (&Run{*v}).History(12, 5))
	}
}

// WriteLadder writes a ladder as a table, in the order of the run, marking
// the strongest entry and the reference.
func WriteLadder(w io.Writer, l *population.Ladder) {
	fmt.Fprintf(w, "ladder (%d pairs per pairing, the defaults = 0):\n", l.Pairs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  player\tgames spent\tW-D-L\tElo [95%]\t")
	for i, e := range l.Entries {
		mark := ""
		switch i {
		case l.Best:
			mark = "strongest"
		case l.Reference:
			mark = "reference"
		}
		if i == l.Best && i == l.Reference {
			mark = "strongest, reference"
		}
		fmt.Fprintf(tw, "  %s\t%d\t%d-%d-%d\t%s\t%s\n", e.Label, e.Spent, e.Wins, e.Draws, e.Losses, EloInterval(e.Elo, e.Low, e.High), mark)
	}
	tw.Flush()
}

// writeYardstick writes each generation's yardstick match, if any, a
// generation called stage (generation, round, block), with a column per
// opponent of the run (named by names).
func writeYardstick(w io.Writer, stage string, hist []population.Generation, names []string) {
	var tw *tabwriter.Writer
	for _, g := range hist {
		y := g.Yardstick
		if y == nil {
			continue
		}
		if tw == nil {
			panel := "the defaults and the previous champion"
			if len(names) > 0 {
				panel = "the defaults, the previous champion and each opponent"
			}
			fmt.Fprintf(w, "yardstick (each champion against %s; rating from every yardstick game, the defaults = 0):\n", panel)
			tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			fmt.Fprintf(tw, "  %s\tgenome\tgames spent\tvs defaults\tvs previous", stage)
			for _, n := range names {
				fmt.Fprintf(tw, "\tvs %s", n)
			}
			fmt.Fprintln(tw, "\trating [95%]")
		}
		prev := "-"
		if y.Previous != population.NoGenome {
			prev = fmt.Sprintf("%d-%d-%d (genome %d)", y.VsPrevious.Wins, y.VsPrevious.Draws, y.VsPrevious.Losses, y.Previous)
		}
		fmt.Fprintf(tw, "  %d\t%d\t%d\t%d-%d-%d\t%s", GenerationNumber(g.Index), y.Genome, g.Spent, y.Wins, y.Draws, y.Losses, prev)
		for o := range names {
			cell := "-"
			if o < len(y.VsOpponents) {
				r := y.VsOpponents[o]
				cell = fmt.Sprintf("%d-%d-%d (%.3f)", r.Wins, r.Draws, r.Losses, r.Score())
			}
			fmt.Fprintf(tw, "\t%s", cell)
		}
		fmt.Fprintf(tw, "\t%s\n", EloInterval(y.Elo, y.EloLow, y.EloHigh))
	}
	if tw != nil {
		tw.Flush()
	}
}

// WriteRuns writes a list of runs as a table (tune runs): each run's
// progress, status and best, or why it cannot be read; a comparison of
// tuners with its tuners' runs indented beneath it.
func WriteRuns(w io.Writer, lines []results.RunLineJSON) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "run\tgame\talgorithm\tprogress\tstatus\tbest")
	for _, l := range lines {
		writeRunRow(tw, l, "")
	}
	tw.Flush()
}

// BestLine is a run's best in one line (tune runs, the dashboard's list):
// the genome handed out with its gain over the reference when it is
// confident; otherwise the reference, with the strongest genome measured
// against it, whose Elo that is; a best verified at a deeper search says
// the verdict ("; verified: held"). interval writes an Elo with its interval;
// b nil gives "-".
func BestLine(b *results.BestJSON, interval func(elo, lo, hi float64) string) string {
	switch {
	case b == nil:
		return "-"
	case b.Confident:
		return fmt.Sprintf("%s %s over the %s", b.Label, interval(float64(b.Elo), float64(b.Low), float64(b.High)), b.Reference) + verifiedNote(b)
	case b.Candidate == "" || b.Candidate == b.Label || math.IsNaN(float64(b.Elo)):
		return b.Label + " (nothing measured beats them)"
	}
	return fmt.Sprintf("%s (strongest %s %s: no gain shown)", b.Label, b.Candidate, interval(float64(b.Elo), float64(b.Low), float64(b.High)))
}

// EloInterval writes an Elo difference with its 95% interval for a
// terminal: "+35 Elo [+10, +60]"; where a bound is infinite (a sweep, or no
// games), in words instead, never "+Inf".
func EloInterval(elo, lo, hi float64) string {
	r := func(x float64) float64 { return math.Round(x) + 0 } // no "-0"
	switch {
	case math.IsInf(lo, 0) && math.IsInf(hi, 0), math.IsNaN(elo):
		return "no Elo yet (too few games)"
	case math.IsInf(elo, 1):
		return fmt.Sprintf("every point won (Elo at least %+.0f)", r(lo))
	case math.IsInf(elo, -1):
		return fmt.Sprintf("every point lost (Elo at most %+.0f)", r(hi))
	case math.IsInf(hi, 1):
		return fmt.Sprintf("%+.0f Elo (at least %+.0f)", r(elo), r(lo))
	case math.IsInf(lo, -1):
		return fmt.Sprintf("%+.0f Elo (at most %+.0f)", r(elo), r(hi))
	}
	return fmt.Sprintf("%+.0f Elo [%+.0f, %+.0f]", r(elo), r(lo), r(hi))
}

// Plan says in words how many games a generation (round, block) of c
// plays, counting pairs (two games from one opening, colours swapped) as
// the keys do: "16 genomes, each playing 4 pairs (8 games) against drawn
// opponents". tune show and the report print it.
func Plan(c population.Config) string {
	switch c.Algo {
	case population.Genetic:
		return fmt.Sprintf("%d genomes a generation, each playing %d pairs (%d games) against opponents drawn from the others", c.Population, c.Games, 2*c.Games) + opponentsPlan(c, ", and")
	case population.Knockout:
		return fmt.Sprintf("%d candidates a round, matches of best-of-%d games (ties: %s)", c.Candidates, c.BestOf, c.Ties)
	case population.SPSA:
		if len(c.Opponents) > 0 {
			return fmt.Sprintf("%d iterations, %d a block, each side of an iteration playing", c.SPSAIterations, c.SPSABlock) + opponentsPlan(c, "")
		}
		return fmt.Sprintf("%d iterations, one pair (2 games) each, %d a block", c.SPSAIterations, c.SPSABlock)
	case population.CMAES:
		return fmt.Sprintf("each candidate plays %d pairs (%d games) against the mean", c.CMAESPairs, 2*c.CMAESPairs) + opponentsPlan(c, ", and")
	case population.Texel:
		return fmt.Sprintf("%d self-play games a round, then a fit", c.TexelGames)
	case population.Bayes:
		if len(c.Opponents) > 0 {
			return "one candidate a round, chosen by " + c.BayesAcquisition + ", playing" + opponentsPlan(c, "")
		}
		return fmt.Sprintf("one candidate a round, chosen by %s, playing %d pairs (%d games) against the reference", c.BayesAcquisition, c.BayesPairs, 2*c.BayesPairs)
	}
	return string(c.Algo)
}

// opponentsPlan says how a tuned genome of c meets its opponents, after
// lead: "" without opponents.
func opponentsPlan(c population.Config, lead string) string {
	if len(c.Opponents) == 0 {
		return ""
	}
	pairs := max(c.OpponentPairs, 1)
	return fmt.Sprintf("%s %d pairs against each of %d opponents (%s)", lead, pairs, len(c.Opponents), strings.Join(c.OpponentNames(), ", "))
}

// Count is n with its noun, singular for one: "1 pair", "4 pairs", "0
// games". The noun is given in the singular and takes an s.
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
