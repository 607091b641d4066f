package reports

import (
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
)

// The views of a run the reports draw for its tuner, by the names the
// tuner's Descriptor gives (population.ReportViews): its line of terms per
// generation, its figures after the Elo figure, its history tables. The
// reports never ask which tuner a run is: a tuner names its views, and a
// new tuner that draws something new adds its drawer here under a new name
// (TestEveryViewDrawn checks that every name has one).

// viewsOf is the views of cfg's tuner; none for an unknown one.
func viewsOf(cfg population.Config) population.ReportViews {
	if d, ok := population.TunerOf(cfg.Algo); ok {
		return d.Report
	}
	return population.ReportViews{}
}

// lineViews write a generation in its tuner's terms (Terms).
var lineViews = map[string]func(cfg population.Config, ev *games.Evaluator, before []float64, g population.Generation) string{
	"genetic":  geneticTerms,
	"knockout": knockoutTerms,
	"spsa":     spsaTerms,
	"cmaes":    cmaesTerms,
	"texel":    texelTerms,
	"bayes": func(_ population.Config, _ *games.Evaluator, _ []float64, g population.Generation) string {
		return bayesTerms(g)
	},
}

// one makes a drawer of one figure a drawer of figures.
func one(f func(*Run) Figure) func(*Run) []Figure {
	return func(r *Run) []Figure { return []Figure{f(r)} }
}

// figureViews draw a run's figures (figuresOf).
var figureViews = map[string]func(*Run) []Figure{
	"coefficients": one((*Run).coefficients),
	"fitness":      one((*Run).fitness),
	"diversity":    one((*Run).diversity),
	"winners":      one((*Run).winners),
	"distance":     one((*Run).distance),
	"spsa":         (*Run).spsaFigures,
	"cmaes-sigma":  one((*Run).cmaesSigma),
	"cmaes-mean":   one((*Run).cmaesMean),
	"texel-loss":   one((*Run).texelLosses),
	"bayes":        (*Run).bayesFigures,
}

// byRows and byPoints make a table of chosen generations a history view:
// a table of generations (at most rows of them) or of weights (at most
// points columns).
func byRows(f func(*Run, []int) Table) func(*Run, int, int) Table {
	return func(r *Run, rows, _ int) Table { return f(r, pick(len(r.Generations), rows)) }
}

func byPoints(f func(*Run, []int) Table) func(*Run, int, int) Table {
	return func(r *Run, _, points int) Table { return f(r, pick(len(r.Generations), points)) }
}

// historyViews make a run's history tables (History).
var historyViews = map[string]func(r *Run, rows, points int) Table{
	"genetic":       byRows((*Run).geneticTable),
	"knockout":      byRows((*Run).knockoutTable),
	"spsa":          byPoints((*Run).spsaTable),
	"cmaes":         byRows((*Run).cmaesTable),
	"cmaes-mean":    byPoints((*Run).meanTable),
	"texel":         byRows((*Run).texelTable),
	"bayes":         byRows((*Run).bayesTable),
	"bayes-optimum": byPoints((*Run).bayesOptimumTable),
}
