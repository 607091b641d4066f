package reports

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"github.com/gametune/gametune/population"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Bayesian optimisation in its own terms (population.BayesRoundOf reads a
// round, population.BayesModelOf the model the run fitted): each round's
// candidate and the Elo observed from its pairs, the model's optimum and
// its posterior mean and sd at the champion, the landscape the model
// draws (partial dependence per parameter, and of the two that matter
// most).

// bayesTerms is Terms for a Bayes round.
func bayesTerms(g population.Generation) string {
	r := population.BayesRoundOf(g)
	c := r.Candidate
	return fmt.Sprintf("candidate %+.0f ± %.0f Elo (%d-%d-%d), optimum %+.0f ± %.0f Elo by the model at champion genome %d, moved %.3f",
		r.Observed, r.ObservedSD, c.Wins, c.Draws, c.Losses, r.Expected, r.ExpectedSD, g.Best, r.Moved)
}

// bayesTable is each round's candidate and the model's optimum.
func (r *Run) bayesTable(idx []int) Table {
	t := Table{ID: "history", Title: "Bayes: each round's candidate, and the optimum by the model (Elo against the reference, ± one sd; moved: the champion's normalised move)",
		Head: []string{"round", "candidate", "observed", "record", "champion", "optimum", "moved"}}
	for _, i := range idx {
		g := r.Generations[i]
		b := population.BayesRoundOf(g)
		c := b.Candidate
		t.Rows = append(t.Rows, []string{fmt.Sprint(GenerationNumber(g.Index)), fmt.Sprint(c.ID), fmt.Sprintf("%+.0f ± %.0f", b.Observed, b.ObservedSD),
			fmt.Sprintf("%d-%d-%d", c.Wins, c.Draws, c.Losses), fmt.Sprint(g.Best), fmt.Sprintf("%+.0f ± %.0f", b.Expected, b.ExpectedSD), fmt.Sprintf("%.3f", b.Moved)})
	}
	return t
}

// bayesOptimumTable is the model's optimum per parameter at the rounds
// idx, from the start, and each parameter's length scale after the last
// round, as a fraction of its range.
func (r *Run) bayesOptimumTable(idx []int) Table {
	t := Table{ID: "history-optimum", Title: "Bayes: the model's optimum at a few rounds, and each parameter's length scale (a fraction of its range: the shorter, the more Elo changes with it)",
		Head: []string{"parameter", "start"}}
	for _, i := range idx {
		t.Head = append(t.Head, fmt.Sprintf("%s %d", r.stage(), GenerationNumber(r.Generations[i].Index)))
	}
	t.Head = append(t.Head, "length scale")
	start, _ := r.Config.StartOrDefaults(r.Evaluator)
	last := r.Generations[len(r.Generations)-1]
	for f, feat := range r.Evaluator.Features {
		if f >= len(last.Std) || last.Std[f] == 0 {
			continue // not tuned
		}
		row := []string{feat.Name, "-"}
		if start != nil {
			row[1] = NumberText(start[f])
		}
		for _, i := range idx {
			row = append(row, NumberText(r.Generations[i].Mean[f]))
		}
		row = append(row, fmt.Sprintf("%.3f", last.Std[f]/(feat.Max-feat.Min)))
		t.Rows = append(t.Rows, row)
	}
	return t
}

// bayesFigures are the optimum's path (its Elo by the model with its
// band, each round's observation), the optimum's parameters by round,
// and the landscape of the last round's model: partial dependence per
// parameter and, with two parameters or more, the heat map of the two
// that matter most. Without a model (a history without its candidates,
// or one that no longer fits) only the first two.
func (r *Run) bayesFigures() []Figure {
	figs := []Figure{r.bayesOptimum(), r.bayesPath()}
	m, err := population.BayesModelOf(r.Config, r.Evaluator, r.Generations)
	if err != nil {
		return figs
	}
	figs = append(figs, bayesLandscape(m))
	if len(m.Params) >= 2 {
		figs = append(figs, bayesPair(m))
	}
	return figs
}

// bayesOptimum draws, by round, the model's posterior mean at the
// champion with its 95% band, and the Elo observed of each round's
// candidate with its 95% interval.
func (r *Run) bayesOptimum() Figure {
	p := newPlot("Bayes: the optimum by the model", r.stage(), "Elo against the reference (95%)")
	var mean, lo, hi plotter.XYs
	var obs errPoints
	for _, g := range r.Generations {
		b, x := population.BayesRoundOf(g), number(g)
		mean = append(mean, plotter.XY{X: x, Y: clip(b.Expected)})
		lo = append(lo, plotter.XY{X: x, Y: clip(b.Expected - 1.96*b.ExpectedSD)})
		hi = append(hi, plotter.XY{X: x, Y: clip(b.Expected + 1.96*b.ExpectedSD)})
		obs.add(x, b.Observed, b.Observed-1.96*b.ObservedSD, b.Observed+1.96*b.ObservedSD)
	}
	band(p, lo, hi, color.NRGBA{31, 119, 180, 55}, "the optimum's 95% band")
	line(p, mean, palette[0], vg.Points(1.5), false, "the optimum: the model's mean at the champion")
	obs.drawIn(p, "each round's candidate, observed", palette[3], draw.CircleGlyph{})
	return Figure{Name: "bayes-optimum", Title: "Bayes: the optimum's path, the model's Elo at each round's champion with its 95% band, and each round's candidate as observed (Elo against the reference)",
		Width: vg.Points(760), Height: vg.Points(360), draw: legendRight(p)}
}

// band fills the area between lo and hi.
func band(p *plot.Plot, lo, hi plotter.XYs, c color.Color, label string) {
	if len(lo) == 0 {
		return
	}
	area := append(plotter.XYs{}, lo...)
	for j := len(hi) - 1; j >= 0; j-- {
		area = append(area, hi[j])
	}
	if poly, err := plotter.NewPolygon(area); err == nil {
		poly.Color = c
		poly.LineStyle.Width = 0
		p.Add(poly)
		if label != "" {
			p.Legend.Add(label, poly)
		}
	}
}

// bayesPath draws the model's optimum per parameter, a fraction of its
// range, by round, from the start (round 0).
func (r *Run) bayesPath() Figure {
	p := newPlot("Bayes: the optimum's parameters", r.stage(), "a fraction of the range")
	start, _ := r.Config.StartOrDefaults(r.Evaluator)
	last := r.Generations[len(r.Generations)-1]
	j := 0
	for i, f := range r.Evaluator.Features {
		if i >= len(last.Std) || last.Std[i] == 0 {
			continue
		}
		var xys plotter.XYs
		if start != nil {
			xys = append(xys, plotter.XY{X: 0, Y: r.fraction(i, start[i])})
		}
		for _, g := range r.Generations {
			xys = append(xys, plotter.XY{X: number(g), Y: r.fraction(i, g.Mean[i])})
		}
		line(p, xys, palette[j%len(palette)], vg.Points(1.2), j >= len(palette), f.Name)
		j++
	}
	p.Y.Min, p.Y.Max = 0, 1
	return Figure{Name: "bayes-path", Title: "Bayes: the model's optimum after each round, each parameter as a fraction of its range",
		Width: vg.Points(760), Height: vg.Points(360), draw: legendRight(p)}
}

// bayesLandscape draws one panel per parameter: its partial dependence
// (the model's mean Elo averaged over the others) over its range with a
// band of ±1.96 times the average sd, the observations as dots at their
// values, and the optimum as a vertical line.
func bayesLandscape(m *population.BayesModel) Figure {
	cols := min(3, len(m.Params))
	rows := (len(m.Params) + cols - 1) / cols
	plots := make([][]*plot.Plot, rows)
	for i := range plots {
		plots[i] = make([]*plot.Plot, cols)
	}
	for j, prm := range m.Params {
		p := newPlot(prm.Name, prm.Name, "Elo")
		p.X.Tick.Marker = plainTicks{}
		d := m.PartialDependence(j, 41)
		var mean, lo, hi, obs plotter.XYs
		for k, v := range d.Values {
			mean = append(mean, plotter.XY{X: v, Y: d.Mean[k]})
			lo = append(lo, plotter.XY{X: v, Y: d.Mean[k] - 1.96*d.SD[k]})
			hi = append(hi, plotter.XY{X: v, Y: d.Mean[k] + 1.96*d.SD[k]})
		}
		for i, w := range m.Points {
			obs = append(obs, plotter.XY{X: w[prm.Feature], Y: clip(m.Elo[i])})
		}
		first := j == 0
		band(p, lo, hi, color.NRGBA{31, 119, 180, 55}, map[bool]string{true: "±1.96 sd"}[first])
		line(p, mean, palette[0], vg.Points(1.5), false, map[bool]string{true: "partial dependence"}[first])
		if s, err := plotter.NewScatter(obs); err == nil {
			s.Color, s.Shape, s.Radius = palette[7], draw.CircleGlyph{}, vg.Points(1.5)
			p.Add(s)
		}
		if m.Optimum != nil {
			y0, y1 := minMax(lo, hi)
			line(p, plotter.XYs{{X: m.Optimum[prm.Feature], Y: y0}, {X: m.Optimum[prm.Feature], Y: y1}}, palette[1], vg.Points(1), true,
				map[bool]string{true: "champion"}[first])
		}
		p.X.Min, p.X.Max = prm.Min, prm.Max
		plots[j/cols][j%cols] = p
	}
	return Figure{Name: "bayes-landscape", Title: fmt.Sprintf("Bayes: the landscape after round %d, each parameter's partial dependence (the model's mean Elo averaged over the others) with its band, the observations as dots", m.Round+1),
		Width: vg.Points(float64(280 * cols)), Height: vg.Points(float64(220 * rows)), draw: tiles(plots)}
}

// minMax is the least of lo and the most of hi.
func minMax(lo, hi plotter.XYs) (float64, float64) {
	a, b := math.Inf(1), math.Inf(-1)
	for i := range lo {
		a, b = math.Min(a, lo[i].Y), math.Max(b, hi[i].Y)
	}
	return a, b
}

// tiles draws plots in their grid, aligned.
func tiles(plots [][]*plot.Plot) func(dc draw.Canvas) {
	return func(dc draw.Canvas) {
		canvases := plot.Align(plots, draw.Tiles{Rows: len(plots), Cols: len(plots[0]), PadX: vg.Points(8), PadY: vg.Points(8),
			PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(4)}, dc)
		for i := range plots {
			for j := range plots[i] {
				if plots[i][j] != nil {
					plots[i][j].Draw(canvases[i][j])
				}
			}
		}
	}
}

// pairGrid is a pair's partial dependence as gonum/plot's heat map reads
// it: column c at the first parameter's c-th value, row r at the
// second's.
type pairGrid struct {
	z      [][]float64
	xs, ys []float64
}

func (g pairGrid) Dims() (c, r int)   { return len(g.xs), len(g.ys) }
func (g pairGrid) Z(c, r int) float64 { return g.z[c][r] }
func (g pairGrid) X(c int) float64    { return g.xs[c] }
func (g pairGrid) Y(r int) float64    { return g.ys[r] }

// bayesPair draws the heat map of the partial dependence of the two
// parameters that matter most (population.BayesModel.Importance: the
// spread of their curves), with the observations (dots) and the
// champion (a cross), and its colour bar; no legend, which would cover the
// map (the title says which is which).
func bayesPair(m *population.BayesModel) Figure {
	imp := m.Importance()
	order := make([]int, len(imp))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpDesc(imp[a], imp[b]) })
	a, b := m.Params[order[0]], m.Params[order[1]]
	const n = 31
	grid := pairGrid{z: m.PairDependence(order[0], order[1], n)}
	lo, hi := math.Inf(1), math.Inf(-1)
	for k := range n {
		u := float64(k) / (n - 1)
		grid.xs = append(grid.xs, a.Min+u*(a.Max-a.Min))
		grid.ys = append(grid.ys, b.Min+u*(b.Max-b.Min))
		for _, z := range grid.z[k] {
			lo, hi = math.Min(lo, z), math.Max(hi, z)
		}
	}
	if !(hi > lo) {
		hi = lo + 1
	}
	cmap := moreland.ExtendedBlackBody()
	cmap.SetMin(lo)
	cmap.SetMax(hi)
	p := newPlot(fmt.Sprintf("Bayes: %s and %s", a.Name, b.Name), a.Name, b.Name)
	p.X.Tick.Marker = plainTicks{}
	p.Add(plotter.NewHeatMap(grid, cmap.Palette(64)))
	var obs plotter.XYs
	for _, w := range m.Points {
		obs = append(obs, plotter.XY{X: w[a.Feature], Y: w[b.Feature]})
	}
	if s, err := plotter.NewScatter(obs); err == nil {
		s.Color, s.Shape, s.Radius = palette[9], draw.CircleGlyph{}, vg.Points(2)
		p.Add(s)
	}
	if m.Optimum != nil {
		if s, err := plotter.NewScatter(plotter.XYs{{X: m.Optimum[a.Feature], Y: m.Optimum[b.Feature]}}); err == nil {
			s.Color, s.Shape, s.Radius = palette[2], draw.CrossGlyph{}, vg.Points(6)
			p.Add(s)
		}
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = a.Min, a.Max, b.Min, b.Max
	bar := plot.New()
	bar.Add(&plotter.ColorBar{ColorMap: cmap, Vertical: true})
	bar.Y.Label.Text = "mean Elo"
	bar.X.Tick.Marker = plot.ConstantTicks([]plot.Tick{})
	return Figure{Name: "bayes-pair", Title: fmt.Sprintf("Bayes: the model's mean Elo over %s and %s (the two parameters that matter most), averaged over the others; dots: the observations, a cross: the champion", a.Name, b.Name),
		Width: vg.Points(560), Height: vg.Points(440), draw: func(dc draw.Canvas) {
			w := vg.Points(80)
			p.Draw(draw.Crop(dc, 0, -w, 0, 0))
			bar.Draw(draw.Crop(dc, dc.Max.X-dc.Min.X-w+vg.Points(10), 0, vg.Points(30), -vg.Points(20)))
		}}
}
