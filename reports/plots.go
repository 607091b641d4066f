// Package reports draws a tuning run: convergence plots (gonum/plot, PNG
// and SVG), a self-contained HTML report, the text summary and tables a
// terminal shows (tune show, runs, ladder, match, tournament), and the
// progress display of long commands. It draws a run as results reads it
// (results.View, inside Run), so tests can draw recorded runs of their own.
package reports

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Run is what the reports draw: a run as every reader sees it
// (results.View: its config, evaluator, closed generations or knockout
// rounds, ladder and best).
type Run struct {
	results.View
}

// Load reads a run directory (results.OpenView).
func Load(dir string) (*Run, error) {
	v, err := results.OpenView(dir)
	if err != nil {
		return nil, err
	}
	return &Run{*v}, nil
}

// NewRun builds a Run from recorded data (results.NewView), without a
// ladder; SetLadder gives it one.
func NewRun(name string, cfg population.Config, hist []population.Generation, info results.Info) (*Run, error) {
	v, err := results.NewView(name, cfg, info, hist, nil)
	if err != nil {
		return nil, err
	}
	return &Run{*v}, nil
}

// stage is what a generation of the run's tuner is called: a "round"
// (knockout, Texel), a "block" (SPSA) or a "generation".
func (r *Run) stage() string { return r.Config.GenerationName() }

// Figure is one drawing: a name for its files, a title, and its size.
type Figure struct {
	Name   string
	Title  string
	Width  vg.Length
	Height vg.Length
	draw   func(dc draw.Canvas)
}

// ErrNoData is returned when a run has no closed generation to draw.
var ErrNoData = errors.New("reports: the run has no finished generation yet")

// Figures returns the run's plots, the same for every reader (the report,
// plots/, the dashboard): first the Elo of its champions against the games
// spent (its title begins with EloTitle), then its tuner's own
// (figuresOf). ErrNoData until a generation has closed.
func (r *Run) Figures() ([]Figure, error) {
	if len(r.Generations) == 0 {
		return nil, ErrNoData
	}
	return append([]Figure{r.elo()}, r.figuresOf()...), nil
}

var palette = []color.Color{
	color.RGBA{31, 119, 180, 255}, color.RGBA{214, 39, 40, 255}, color.RGBA{44, 160, 44, 255},
	color.RGBA{255, 127, 14, 255}, color.RGBA{148, 103, 189, 255}, color.RGBA{140, 86, 75, 255},
	color.RGBA{227, 119, 194, 255}, color.RGBA{127, 127, 127, 255}, color.RGBA{188, 189, 34, 255},
	color.RGBA{23, 190, 207, 255},
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.X.Tick.Marker = integerTicks{}
	p.Y.Tick.Marker = plainTicks{}
	p.Legend.Top = true
	p.Legend.YOffs = vg.Points(-4)
	p.Legend.XOffs = vg.Points(-4)
	p.Add(plotter.NewGrid())
	return p
}

// plainTicks are gonum's default ticks with their labels written without
// needless decimals: "750", not "750.00"; "0.25" stays.
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if l := ticks[i].Label; strings.Contains(l, ".") && !strings.ContainsAny(l, "eE") {
			ticks[i].Label = strings.TrimSuffix(strings.TrimRight(l, "0"), ".")
		}
	}
	return ticks
}

// integerTicks marks whole generations or rounds, at most about ten.
type integerTicks struct{}

func (integerTicks) Ticks(lo, hi float64) []plot.Tick {
	first, last := math.Ceil(lo), math.Floor(hi)
	step := math.Max(1, math.Ceil((last-first)/10))
	var ticks []plot.Tick
	for x := first; x <= last; x += step {
		ticks = append(ticks, plot.Tick{Value: x, Label: fmt.Sprint(int(x))})
	}
	return ticks
}

// countTicks marks a count (of games) at round steps (1, 2 or 5 times a
// power of ten), about six of them, labelled as whole numbers.
type countTicks struct{}

func (countTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: fmt.Sprint(int64(lo))}}
	}
	raw := (hi - lo) / 6
	step := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*step >= raw {
			step *= m
			break
		}
	}
	step = math.Max(step, 1)
	var ticks []plot.Tick
	for x := math.Ceil(lo/step) * step; x <= hi; x += step {
		ticks = append(ticks, plot.Tick{Value: x, Label: fmt.Sprint(int64(math.Round(x)))})
	}
	return ticks
}

func line(p *plot.Plot, xys plotter.XYs, c color.Color, width vg.Length, dashed bool, label string) {
	l, err := plotter.NewLine(xys)
	if err != nil {
		return
	}
	l.Color = c
	l.Width = width
	if dashed {
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	}
	p.Add(l)
	if label != "" {
		p.Legend.Add(label, l)
	}
}

func single(p *plot.Plot) func(dc draw.Canvas) { return p.Draw }

// coefficients draws one panel per feature: the population mean per
// generation with a band of ±1 standard deviation, and the best genome's
// value.
func (r *Run) coefficients() Figure {
	feats := r.Evaluator.Features
	cols := min(3, len(feats))
	rows := (len(feats) + cols - 1) / cols
	plots := make([][]*plot.Plot, rows)
	for i := range plots {
		plots[i] = make([]*plot.Plot, cols)
	}
	for i, f := range feats {
		p := newPlot(f.Name, r.stage(), "weight")
		var mean, lo, hi, best plotter.XYs
		for _, g := range r.Generations {
			x := number(g)
			if i < len(g.Mean) {
				mean = append(mean, plotter.XY{X: x, Y: g.Mean[i]})
				lo = append(lo, plotter.XY{X: x, Y: g.Mean[i] - g.Std[i]})
				hi = append(hi, plotter.XY{X: x, Y: g.Mean[i] + g.Std[i]})
			}
			for _, x2 := range g.Genomes {
				if x2.ID == g.Best && i < len(x2.Weights) {
					best = append(best, plotter.XY{X: x, Y: x2.Weights[i]})
				}
			}
		}
		if len(mean) > 0 {
			band := append(plotter.XYs{}, lo...)
			for j := len(hi) - 1; j >= 0; j-- {
				band = append(band, hi[j])
			}
			if poly, err := plotter.NewPolygon(band); err == nil {
				poly.Color = color.NRGBA{31, 119, 180, 55}
				poly.LineStyle.Width = 0
				p.Add(poly)
				if i == 0 {
					p.Legend.Add("mean ± 1 sd", poly)
				}
			}
		}
		line(p, mean, palette[0], vg.Points(1.5), false, map[bool]string{true: "mean"}[i == 0])
		line(p, best, palette[1], vg.Points(1.2), true, map[bool]string{true: "best"}[i == 0])
		p.Y.Min, p.Y.Max = f.Min, f.Max
		plots[i/cols][i%cols] = p
	}
	return Figure{
		Name: "coefficients", Title: "Coefficients: population mean ± 1 sd and the best genome",
		Width: vg.Points(float64(260 * cols)), Height: vg.Points(float64(200 * rows)),
		draw: func(dc draw.Canvas) {
			canvases := plot.Align(plots, draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(8), PadY: vg.Points(8),
				PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(4)}, dc)
			for i := range plots {
				for j := range plots[i] {
					if plots[i][j] != nil {
						plots[i][j].Draw(canvases[i][j])
					}
				}
			}
		},
	}
}

func (r *Run) fitness() Figure {
	unit, shown := "points per game", func(f float64) float64 { return f }
	if !r.Knockout() {
		unit, shown = r.Config.FitnessUnit(), r.Config.ShownFitness
	}
	p := newPlot("Fitness", r.stage(), unit)
	var best, mean, worst plotter.XYs
	for _, g := range r.Generations {
		x := number(g)
		best = append(best, plotter.XY{X: x, Y: shown(g.BestFitness)})
		mean = append(mean, plotter.XY{X: x, Y: shown(g.MeanFitness)})
		worst = append(worst, plotter.XY{X: x, Y: shown(g.WorstFitness)})
	}
	line(p, best, palette[1], vg.Points(1.5), false, "best")
	line(p, mean, palette[0], vg.Points(1.5), false, "mean")
	line(p, worst, palette[7], vg.Points(1.2), true, "worst")
	return Figure{Name: "fitness", Title: "Fitness: best, mean and worst", Width: vg.Points(520), Height: vg.Points(320), draw: single(p)}
}

// eloClip bounds infinite Elo values (a match won or lost outright).
const eloClip = 800

func clip(x float64) float64 { return math.Max(-eloClip, math.Min(eloClip, x)) }

// errPoints are ratings with their 95% intervals.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// span widens [lo, hi] to hold every interval.
func (pts errPoints) span(lo, hi float64) (float64, float64) {
	for i, xy := range pts.XYs {
		lo = math.Min(lo, xy.Y-pts.YErrors[i].Low)
		hi = math.Max(hi, xy.Y+pts.YErrors[i].High)
	}
	return lo, hi
}

func (r *Run) diversity() Figure {
	p := newPlot("Diversity", r.stage(), "mean normalised distance between genomes")
	var d plotter.XYs
	for _, g := range r.Generations {
		d = append(d, plotter.XY{X: number(g), Y: g.Diversity})
	}
	line(p, d, palette[2], vg.Points(1.5), false, "diversity")
	p.Y.Min = 0
	return Figure{Name: "diversity", Title: "Diversity of the population", Width: vg.Points(520), Height: vg.Points(320), draw: single(p)}
}

func (r *Run) winners() Figure {
	p := newPlot("Knockout winners' weights", "round", "weight")
	for i, f := range r.Evaluator.Features {
		var xys plotter.XYs
		for _, g := range r.Generations {
			for _, x := range g.Genomes {
				if x.ID == g.Best && i < len(x.Weights) {
					xys = append(xys, plotter.XY{X: number(g), Y: x.Weights[i]})
				}
			}
		}
		line(p, xys, palette[i%len(palette)], vg.Points(1.5), i >= len(palette), f.Name)
	}
	return Figure{Name: "winners", Title: "Knockout: each round's winner", Width: vg.Points(520), Height: vg.Points(320), draw: single(p)}
}

func (r *Run) distance() Figure {
	p := newPlot("Distance between successive winners", "round", "normalised distance")
	var d plotter.XYs
	for _, g := range r.Generations {
		d = append(d, plotter.XY{X: number(g), Y: g.Distance})
	}
	line(p, d, palette[3], vg.Points(1.5), false, "distance")
	th := plotter.XYs{{X: number(r.Generations[0]), Y: r.Config.Threshold}, {X: number(r.Generations[len(r.Generations)-1]), Y: r.Config.Threshold}}
	line(p, th, palette[7], vg.Points(1), true, "threshold")
	p.Y.Min = 0
	return Figure{Name: "distance", Title: "Knockout: the stopping signal", Width: vg.Points(520), Height: vg.Points(320), draw: single(p)}
}

// SVG renders the figure as SVG.
func (f Figure) SVG() ([]byte, error) {
	c := vgsvg.New(f.Width, f.Height)
	f.draw(draw.New(c))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, fmt.Errorf("reports: %s: %w", f.Name, err)
	}
	return b.Bytes(), nil
}

// PNG renders the figure as PNG at 96 dots per inch, on white.
func (f Figure) PNG() ([]byte, error) {
	c := vgimg.NewWith(vgimg.UseWH(f.Width, f.Height), vgimg.UseDPI(96), vgimg.UseBackgroundColor(color.White))
	f.draw(draw.New(c))
	var b bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&b); err != nil {
		return nil, fmt.Errorf("reports: %s: %w", f.Name, err)
	}
	return b.Bytes(), nil
}

// WritePlots writes every figure into dir (created if needed) as png, svg
// or both, atomically, replacing earlier plots, and returns the files.
func WritePlots(r *Run, dir, format string) ([]string, error) {
	if format != "png" && format != "svg" && format != "both" {
		return nil, fmt.Errorf("reports: format %q: want png, svg or both", format)
	}
	figs, err := r.Figures()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("reports: %w", err)
	}
	var files []string
	for _, f := range figs {
		for _, ext := range []string{"svg", "png"} {
			if format != "both" && format != ext {
				continue
			}
			var data []byte
			if ext == "svg" {
				data, err = f.SVG()
			} else {
				data, err = f.PNG()
			}
			if err != nil {
				return nil, err
			}
			path := filepath.Join(dir, f.Name+"."+ext)
			if err := results.WriteFileAtomic(path, data, true); err != nil {
				return nil, err
			}
			files = append(files, path)
		}
	}
	return files, nil
}

// CompareCurve is one tuner's curve in a comparison: the Elo of its
// champions (with 95% intervals) against the games spent.
type CompareCurve struct {
	Name   string
	Points []population.LadderEntry // Spent, Elo, Low, High
}

// Comparison draws Elo against games spent, one curve per tuner, with the
// reference (the start) as a horizontal line at ref.
func Comparison(curves []CompareCurve, ref float64) Figure {
	p := newPlot("Tuners compared on one budget", "games spent", "Elo, the defaults = 0 (95% interval)")
	p.X.Tick.Marker = plot.DefaultTicks{}
	maxX, lo, hi := 1.0, ref, ref
	for i, c := range curves {
		var pts errPoints
		pts.XYs = append(pts.XYs, plotter.XY{X: 0, Y: clip(ref)})
		pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{0, 0})
		for _, e := range c.Points {
			y := clip(e.Elo)
			pts.XYs = append(pts.XYs, plotter.XY{X: float64(e.Spent), Y: y})
			pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{y - clip(e.Low), clip(e.High) - y})
			maxX = math.Max(maxX, float64(e.Spent))
			lo, hi = math.Min(lo, clip(e.Low)), math.Max(hi, clip(e.High))
		}
		col := palette[i%len(palette)]
		if l, err := plotter.NewLine(pts.XYs); err == nil {
			l.Color = col
			p.Add(l)
			p.Legend.Add(c.Name, l)
		}
		if bars, err := plotter.NewYErrorBars(pts); err == nil {
			bars.Color = col
			p.Add(bars)
		}
	}
	line(p, plotter.XYs{{X: 0, Y: clip(ref)}, {X: maxX, Y: clip(ref)}}, palette[7], vg.Points(1), true, "start")
	p.Y.Min, p.Y.Max = lo-50, hi+100
	p.X.Min, p.X.Max = 0, maxX*1.05
	return Figure{Name: "compare", Title: "Elo of each tuner's champions against the games spent", Width: vg.Points(620), Height: vg.Points(360), draw: single(p)}
}

// number is generation g's number as a person reads it, from 1 (the store
// counts from 0): the terminal, tune show, the report and the dashboard
// all name generation g.Index+1.
func number(g population.Generation) float64 { return float64(GenerationNumber(g.Index)) }

// GenerationNumber is the number a person reads for the generation (round,
// block) stored at index i, counted from 0: i+1, as the terminal's
// progress lines (population.Config.GenerationOf) count.
func GenerationNumber(i int) int { return i + 1 }
