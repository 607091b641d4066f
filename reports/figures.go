package reports

import (
	"image/color"
	"math"

	"github.com/gametune/gametune/population"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// EloTitle begins the title of every run's first figure (Run.elo).
const EloTitle = "Elo against games spent"

// legendRight draws p with its legend to the right of the plot area, so
// that no entry covers a line: the legend's entries leave p, and the
// drawing gives them the room they need beside it.
func legendRight(p *plot.Plot) func(dc draw.Canvas) {
	leg := p.Legend
	p.Legend = plot.NewLegend()
	leg.Top, leg.Left, leg.XOffs, leg.YOffs = true, true, 0, 0
	return func(dc draw.Canvas) {
		r := leg.Rectangle(dc)
		w := r.Max.X - r.Min.X + vg.Points(16)
		p.Draw(draw.Crop(dc, 0, -w, 0, 0))
		leg.Draw(draw.Crop(dc, dc.Max.X-dc.Min.X-w+vg.Points(10), 0, 0, -vg.Points(28)))
	}
}

// drawIn adds the intervals as error bars and the ratings as glyphs of
// shape in colour c, named label in the legend.
func (pts errPoints) drawIn(p *plot.Plot, label string, c color.Color, shape draw.GlyphDrawer) {
	if len(pts.XYs) == 0 {
		return
	}
	if bars, err := plotter.NewYErrorBars(pts); err == nil {
		bars.Color = c
		p.Add(bars)
	}
	if s, err := plotter.NewScatter(pts.XYs); err == nil {
		s.Color, s.Shape, s.Radius = c, shape, vg.Points(3)
		p.Add(s)
		p.Legend.Add(label, s)
	}
}

// add appends a rating at x with its 95% interval, clipped at ±eloClip.
func (pts *errPoints) add(x, elo, lo, hi float64) {
	y := clip(elo)
	pts.XYs = append(pts.XYs, plotter.XY{X: x, Y: y})
	pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{y - clip(lo), clip(hi) - y})
}

// refLine is a horizontal line of the Elo figure: a player that does not
// move (the defaults, the start) at its rating.
type refLine struct {
	label string
	elo   float64
	c     color.Color
}

// elo draws every run's first figure: the Elo of its champions against
// the games the run had spent when each was champion, the yardstick's
// ratings (against the defaults, from every yardstick game) and the
// ladder's (on openings the run never used), each with its 95% interval,
// and the reference tuning had to beat (the defaults, at 0, or the start
// as the ladder rates it) as a dashed line. Where both rate one champion,
// the yardstick's point is drawn a little left and the ladder's a little
// right of its games, so that both intervals show.
func (r *Run) elo() Figure {
	p := newPlot(EloTitle, "games spent", "Elo, the defaults = 0 (95% interval)")
	p.X.Tick.Marker = countTicks{}
	maxX := 1.0
	for _, g := range r.Generations {
		maxX = math.Max(maxX, float64(g.Spent))
	}
	var yard, ladder errPoints
	shift := 0.0
	if r.Ladder != nil {
		shift = maxX / 150
	}
	for _, g := range r.Generations {
		if y := g.Yardstick; y != nil {
			yard.add(float64(g.Spent)-shift, y.Elo, y.EloLow, y.EloHigh)
		}
	}
	lo, hi := yard.span(0, 0)
	refs, reference := []refLine{{"defaults", 0, palette[7]}}, -1
	if l := r.Ladder; l != nil {
		for i, e := range l.Entries {
			k := 0
			switch {
			case e.Generation >= 0:
				ladder.add(float64(e.Spent)+shift, e.Elo, e.Low, e.High)
				continue
			case e.Genome != population.DefaultsID:
				refs = append(refs, refLine{e.Label, clip(e.Elo), palette[1]})
				k = len(refs) - 1
			}
			if i == l.Reference {
				reference = k
			}
		}
		lo, hi = ladder.span(lo, hi)
	} else if r.Best.Reference == "defaults" {
		reference = 0
	}
	if reference >= 0 {
		refs[reference].label += " (the reference)"
	}
	for _, ref := range refs {
		lo, hi = math.Min(lo, ref.elo), math.Max(hi, ref.elo)
		line(p, plotter.XYs{{X: 0, Y: ref.elo}, {X: maxX, Y: ref.elo}}, ref.c, vg.Points(1), true, ref.label)
	}
	if l, err := plotter.NewLine(ladder.XYs); err == nil && len(ladder.XYs) > 1 {
		l.Color = palette[0]
		p.Add(l)
	}
	ladder.drawIn(p, "champion, by the ladder", palette[0], draw.CircleGlyph{})
	yard.drawIn(p, "champion, by the yardstick", palette[3], draw.TriangleGlyph{})
	pad := math.Max(20, (hi-lo)/10)
	p.Y.Min, p.Y.Max = lo-pad, hi+pad
	p.X.Min, p.X.Max = 0, maxX*1.03
	title := EloTitle + ": each champion rated by the yardstick and by the ladder, the defaults = 0 (95% intervals, clipped at ±800)"
	return Figure{Name: "elo", Title: title, Width: vg.Points(760), Height: vg.Points(360), draw: legendRight(p)}
}

// figuresOf returns the run's own figures after the first: the genetic
// tuner's coefficients, fitness and diversity; knockout's winners and the
// distance between them; SPSA's theta, its moves in units of c_k and c_k;
// CMA-ES's sigma and mean; Texel's losses; Bayes' optimum, its path and
// its landscape (bayes.go).
func (r *Run) figuresOf() []Figure {
	switch r.Config.Algo {
	case population.Bayes:
		return r.bayesFigures()
	case population.Knockout:
		return []Figure{r.winners(), r.distance()}
	case population.SPSA:
		return r.spsaFigures()
	case population.CMAES:
		return []Figure{r.cmaesSigma(), r.cmaesMean()}
	case population.Texel:
		return []Figure{r.texelLosses()}
	}
	return []Figure{r.coefficients(), r.fitness(), r.diversity()}
}

// fraction is w as a fraction of feature i's range: 0 at its minimum, 1 at
// its maximum.
func (r *Run) fraction(i int, w float64) float64 {
	f := r.Evaluator.Features[i]
	if f.Max <= f.Min {
		return 0
	}
	return (w - f.Min) / (f.Max - f.Min)
}

// spsaFigures draws SPSA's parameters against the iterations: theta as a
// fraction of its range; theta's move from its start in units of c_k (as
// fishtest draws it, every parameter on one axis); and c_k as a fraction
// of the range (one line when every parameter shares it). Without a
// schedule (a config that no longer parses its parameters) only the first.
func (r *Run) spsaFigures() []Figure {
	steps, err := population.SPSAStepsAt(r.Config, r.Evaluator, 1)
	theta := newPlot("SPSA: theta", "iteration", "theta, a fraction of its range")
	moved := newPlot("SPSA: theta moved from its start, in units of c_k", "iteration", "(theta - start) / c_k")
	for _, p := range []*plot.Plot{theta, moved} {
		p.X.Tick.Marker = countTicks{}
	}
	for j, s := range steps {
		i, col, dashed := s.Feature, palette[j%len(palette)], j >= len(palette)
		xyTheta := plotter.XYs{{X: 0, Y: r.fraction(i, s.Start)}}
		xyMoved := plotter.XYs{{X: 0, Y: 0}}
		for _, g := range r.Generations {
			k := r.Config.SPSAIterationsDone(g.Index)
			at, err := population.SPSAStepsAt(r.Config, r.Evaluator, k)
			if err != nil || i >= len(g.Mean) {
				continue
			}
			xyTheta = append(xyTheta, plotter.XY{X: float64(k), Y: r.fraction(i, g.Mean[i])})
			xyMoved = append(xyMoved, plotter.XY{X: float64(k), Y: (g.Mean[i] - s.Start) / at[j].C})
		}
		line(theta, xyTheta, col, vg.Points(1.2), dashed, s.Name)
		line(moved, xyMoved, col, vg.Points(1.2), dashed, s.Name)
	}
	theta.Y.Min, theta.Y.Max = 0, 1
	size := func(name, title string, p *plot.Plot) Figure {
		return Figure{Name: name, Title: title, Width: vg.Points(760), Height: vg.Points(360), draw: legendRight(p)}
	}
	figs := []Figure{size("spsa-theta", "SPSA: each parameter's theta over the iterations, as a fraction of its range", theta)}
	if err != nil {
		return figs
	}
	return append(figs,
		size("spsa", "SPSA: each parameter's theta moved from its start, in units of its c_k (fishtest's view: a move of 1 is one c_k)", moved),
		size("spsa-c", "SPSA: each parameter's c_k, the perturbation of iteration k, as a fraction of its range", r.spsaC(steps)))
}

// spsaC draws SPSA's c_k as a fraction of each parameter's range, at
// about 200 iterations from 1 to the last played: a line per parameter,
// or one for them all when they share it (c_end a fixed share of every
// range).
func (r *Run) spsaC(steps []population.SPSAStep) *plot.Plot {
	p := newPlot("SPSA: c_k, the perturbation", "iteration", "c_k, a fraction of the range")
	p.X.Tick.Marker = countTicks{}
	last := r.Config.SPSAIterationsDone(r.Generations[len(r.Generations)-1].Index)
	rel := func(s population.SPSAStep) float64 {
		f := r.Evaluator.Features[s.Feature]
		return s.C / (f.Max - f.Min)
	}
	lo, hi := bounds(steps, rel)
	shared := lo == hi
	curves := make([]plotter.XYs, len(steps))
	for n := 0; n <= 200; n++ {
		k := 1 + int(math.Round(float64(n)*float64(last-1)/200))
		at, err := population.SPSAStepsAt(r.Config, r.Evaluator, k)
		if err != nil {
			break
		}
		for j := range at {
			curves[j] = append(curves[j], plotter.XY{X: float64(k), Y: rel(at[j])})
		}
	}
	for j, s := range steps {
		if shared {
			line(p, curves[j], palette[0], vg.Points(1.5), false, "every parameter")
			break
		}
		line(p, curves[j], palette[j%len(palette)], vg.Points(1.2), j >= len(palette), s.Name)
	}
	p.X.Min, p.Y.Min = 0, 0
	return p
}

// cmaesSigma draws CMA-ES's step per generation (population.CMAESSigma)
// and the distance its mean moved, both as fractions of each range.
func (r *Run) cmaesSigma() Figure {
	p := newPlot("CMA-ES: sigma and the mean's move", "generation", "a fraction of each range")
	pop := r.Config.CMAESCandidates(r.Evaluator)
	var sigma, moved plotter.XYs
	for _, g := range r.Generations {
		sigma = append(sigma, plotter.XY{X: number(g), Y: population.CMAESSigma(r.Evaluator, g, pop)})
		moved = append(moved, plotter.XY{X: number(g), Y: g.Distance})
	}
	line(p, sigma, palette[0], vg.Points(1.5), false, "sigma (the candidates' spread)")
	line(p, moved, palette[3], vg.Points(1.2), true, "the mean's move")
	p.Y.Min = 0
	return Figure{Name: "cmaes-sigma", Title: "CMA-ES: the step sigma of each generation and the distance its mean moved, as fractions of each range",
		Width: vg.Points(760), Height: vg.Points(320), draw: legendRight(p)}
}

// cmaesMean draws CMA-ES's mean (each generation's champion) per searched
// feature, as a fraction of its range, from the start (generation 0).
func (r *Run) cmaesMean() Figure {
	p := newPlot("CMA-ES: the mean", "generation", "weight, a fraction of its range")
	start, _ := r.Config.StartOrDefaults(r.Evaluator)
	j := 0
	for i, f := range r.Evaluator.Features {
		if f.Max <= f.Min {
			continue
		}
		var xys plotter.XYs
		if start != nil {
			xys = append(xys, plotter.XY{X: 0, Y: r.fraction(i, start[i])})
		}
		for _, g := range r.Generations {
			if w := champion(g); w != nil {
				xys = append(xys, plotter.XY{X: number(g), Y: r.fraction(i, w[i])})
			}
		}
		line(p, xys, palette[j%len(palette)], vg.Points(1.2), j >= len(palette), f.Name)
		j++
	}
	p.Y.Min, p.Y.Max = 0, 1
	return Figure{Name: "cmaes-mean", Title: "CMA-ES: the mean of each generation (the weights the next one plays against), as a fraction of each range",
		Width: vg.Points(760), Height: vg.Points(360), draw: legendRight(p)}
}

// champion is the weights of generation g's champion (its Best); nil when
// g does not hold it.
func champion(g population.Generation) []float64 {
	for _, x := range g.Genomes {
		if x.ID == g.Best {
			return x.Weights
		}
	}
	return nil
}

// texelLosses draws Texel's losses per round (population.TexelLossesOf):
// the fit's on its training positions and on the held-out ones, and the
// held-out loss of the weights the round began from, with a cross on each
// round that refused its fit.
func (r *Run) texelLosses() Figure {
	p := newPlot("Texel: losses per round", "round", "mean squared error (the round's K)")
	var train, held, start, refused plotter.XYs
	for _, g := range r.Generations {
		l, x := population.TexelLossesOf(g), number(g)
		train = append(train, plotter.XY{X: x, Y: l.Train})
		held = append(held, plotter.XY{X: x, Y: l.Held})
		start = append(start, plotter.XY{X: x, Y: l.HeldStart})
		if !l.Accepted {
			refused = append(refused, plotter.XY{X: x, Y: l.Held})
		}
	}
	line(p, train, palette[0], vg.Points(1.5), false, "training loss of the fit")
	line(p, held, palette[1], vg.Points(1.5), false, "held-out loss of the fit")
	line(p, start, palette[7], vg.Points(1.2), true, "held-out loss of the round's start")
	if s, err := plotter.NewScatter(refused); err == nil && len(refused) > 0 {
		s.Color, s.Shape, s.Radius = palette[1], draw.CrossGlyph{}, vg.Points(5)
		p.Add(s)
		p.Legend.Add("fit refused", s)
	}
	p.Y.Min = 0
	return Figure{Name: "texel-loss", Title: "Texel: the losses of each round, training and held-out, and the held-out loss of the weights it began from",
		Width: vg.Points(760), Height: vg.Points(320), draw: legendRight(p)}
}
