package reports

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
)

// Refresh redraws the plots (dir/plots, PNG and SVG) and the HTML report
// (dir/report.html) of the run in dir, from what it recorded.
func Refresh(dir string) error {
	r, err := Load(dir)
	if err != nil {
		return err
	}
	if _, err := WritePlots(r, filepath.Join(dir, "plots"), "both"); err != nil {
		return err
	}
	return WriteHTML(r, filepath.Join(dir, "report.html"))
}

// WriteResult writes what a finished run of cfg gives (tune run, tune
// resume): its length, its ladder, its best (chosen by
// population.ChooseBest) with its verification and a weight per feature
// of ev, and where its results are (dir).
func WriteResult(w io.Writer, cfg population.Config, ev *games.Evaluator, res population.Result, best population.Choice, dir string) {
	fmt.Fprintf(w, "%d %ss, %d games (ended: %s)\n", res.Generations, cfg.GenerationName(), res.Spent, cfg.StopText(res.Stop))
	if res.Ladder != nil {
		WriteLadder(w, res.Ladder)
	}
	fmt.Fprintf(w, "best: %s\n", best.Summary())
	for i, f := range ev.Features {
		fmt.Fprintf(w, "  %-24s %g\n", f.Name, best.Weights[i])
	}
	writeVerification(w, res.Verification)
	fmt.Fprintf(w, "results in %s: report.html, plots/ (tune show %s; tune export %s --format json)\n", dir, dir, dir)
}

// WriteComparison writes a comparison of tuners into dir: the plot of the
// Elo of each tuner's champions against the games spent (compare.png and
// compare.svg) and the table (compare.txt: the ladder l, then a row per
// tuner), and returns the table.
func WriteComparison(dir string, l *population.Ladder, rows []results.CompareRow) ([]byte, error) {
	ref := l.Entries[l.Reference]
	var curves []CompareCurve
	for _, r := range rows {
		curves = append(curves, CompareCurve{Name: r.Algo, Points: r.Entries})
	}
	fig := Comparison(curves, ref.Elo)
	for format, draw := range map[string]func() ([]byte, error){"png": fig.PNG, "svg": fig.SVG} {
		data, err := draw()
		if err == nil {
			err = results.WriteFileAtomic(filepath.Join(dir, "compare."+format), data, false)
		}
		if err != nil {
			return nil, err
		}
	}
	var table bytes.Buffer
	WriteLadder(&table, l)
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "tuner\tlast champion\tElo over the %s [95%%]\tgames\ttime\t\n", ref.Label)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.0f s\t\n", r.Algo, r.Champion, EloInterval(float64(r.Elo), float64(r.Low), float64(r.High)), r.Games, r.Seconds)
	}
	tw.Flush()
	return table.Bytes(), results.WriteFileAtomic(filepath.Join(dir, "compare.txt"), table.Bytes(), false)
}
