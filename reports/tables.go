package reports

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"math"
	"strings"

	"github.com/gametune/gametune/files"
	"github.com/gametune/gametune/games"
)

// ErrNoTables is returned for an evaluator that has no tables to draw (no
// Tables, or no Pictures to draw them with).
var ErrNoTables = errors.New("reports: the evaluator has no tables to draw")

// TablesStyle is the look of the tables section, as CSS rules: the report,
// the standalone page and the dashboard add it to their style.
const TablesStyle = `.boards { display: flex; flex-wrap: wrap; gap: 0.8em 1.2em; align-items: flex-start; }
.boards figure { margin: 0; text-align: center; font-size: 0.8em; }
.boards figcaption { max-width: 16em; margin: 0 auto; color: #444; }
.boards svg { display: block; margin: 0 auto; }
.boards.configurations figcaption { max-width: 9em; }
`

// Sizes of the drawings, in pixels.
const (
	heatCell   = 28 // a heatmap's square
	configCell = 12 // a configuration's square
	labelSpace = 14 // room for the files' letters and the ranks' numbers
	legendStep = 9  // the legend's colour steps
)

// TablesSection draws the tables of ev (its Data) with the weights w as an
// HTML section: a title, what the pictures show, then the heatmaps and the
// configurations of ev.Pictures, each board an inline SVG (one <svg> a
// board, nothing fetched). It returns ErrNoTables for an evaluator without
// Tables or Pictures, and an error naming the lengths when w has not one
// weight per feature or Data not TablesSize values. Its cost is ev.Pictures'
// (a few ms for Othello's patterns) plus about 10 KB of text a heatmap.
func TablesSection(g games.Game, ev *games.Evaluator, w []float64) (template.HTML, error) {
	if len(ev.Tables) == 0 || ev.Pictures == nil {
		return "", fmt.Errorf("%w: %s/%s", ErrNoTables, g.Name(), ev.Name)
	}
	if len(w) != len(ev.Features) {
		return "", fmt.Errorf("reports: %d weights for the %d features of %s/%s", len(w), len(ev.Features), g.Name(), ev.Name)
	}
	if len(ev.Data) != ev.TablesSize() {
		return "", fmt.Errorf("reports: %s/%s has tables of %d values in all, its data %d", g.Name(), ev.Name, ev.TablesSize(), len(ev.Data))
	}
	var heat, configs strings.Builder
	for _, b := range ev.Pictures(ev.Data, w) {
		switch {
		case b.Heat != nil:
			fmt.Fprintf(&heat, "<figure>%s<figcaption>%s</figcaption></figure>\n", HeatmapSVG(b), esc(b.Title))
		case b.Marks != "":
			fmt.Fprintf(&configs, "<figure>%s<figcaption>%s</figcaption></figure>\n", ConfigurationSVG(b), esc(b.Title))
		}
	}
	var s strings.Builder
	fmt.Fprintf(&s, "<section id=\"tables\">\n<h2>Tables of %s/%s</h2>\n<p>%s</p>\n<p>", esc(g.Name()), esc(ev.Name), esc(ev.Doc))
	for i, t := range ev.Tables {
		if i > 0 {
			s.WriteString(" · ")
		}
		fmt.Fprintf(&s, "<b>%s</b> %s", esc(t.Name), esc(shapeText(t.Shape)))
	}
	s.WriteString("</p>\n")
	if heat.Len() > 0 {
		if ev.PicturesDoc != "" {
			fmt.Fprintf(&s, "<h3>The tables on the board</h3>\n<p>%s Each heatmap has its own scale, given below it; hover over a square for its value.</p>\n<div class=\"boards heatmaps\">\n", esc(ev.PicturesDoc))
		} else {
			s.WriteString(`<h3>Each square's average contribution</h3>
<p>Each heatmap shows what every square adds, on average, to the evaluation of the side to move, in the evaluation's units (each table entry times its scale): blue raises the side to move's score, red lowers it. Each heatmap has its own scale, given below it; hover over a square for its value.</p>
<div class="boards heatmaps">
`)
		}
		s.WriteString(heat.String())
		s.WriteString("</div>\n")
	}
	if configs.Len() == 0 && heat.Len() > 0 && anyNonZero(ev.Data) {
		// An evaluator that draws its tables as heatmaps only (chess's
		// piece-square tables) has no configurations to show.
		s.WriteString("</section>\n")
		return template.HTML(s.String()), nil
	}
	s.WriteString("<h3>Strongest configurations</h3>\n")
	if configs.Len() == 0 {
		s.WriteString("<p>No table entry differs from zero: the tables have not been fitted yet.</p>\n")
	} else {
		s.WriteString(`<p>The highest and lowest valued configurations of each table (entry times scale, below each board): black discs are the side to move's, white the opponent's, green squares the pattern's empty squares; grey squares lie outside the pattern.</p>
<div class="boards configurations">
`)
		s.WriteString(configs.String())
		s.WriteString("</div>\n")
	}
	s.WriteString("</section>\n")
	return template.HTML(s.String()), nil
}

func anyNonZero(data []float32) bool {
	for _, x := range data {
		if x != 0 {
			return true
		}
	}
	return false
}

// TablesPage is a standalone page (self-contained, like the report) with
// title and the tables section of ev.
func TablesPage(title string, g games.Game, ev *games.Evaluator, w []float64) ([]byte, error) {
	section, err := TablesSection(g, ev, w)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n<style>\n%s%s</style>\n</head>\n<body>\n<h1>%s</h1>\n%s</body>\n</html>\n",
		esc(title), PageStyle, TablesStyle, esc(title), section)
	return b.Bytes(), nil
}

// WriteTablesPage writes TablesPage to path atomically; an existing file is
// replaced only with overwrite (results.ErrFileExists otherwise). A write
// that fails for another reason keeps the page in a file the error names
// (files.WriteOrKeep).
func WriteTablesPage(path, title string, g games.Game, ev *games.Evaluator, w []float64, overwrite bool) error {
	page, err := TablesPage(title, g, ev, w)
	if err != nil {
		return err
	}
	return files.WriteOrKeep(path, page, overwrite)
}

// HeatmapSVG draws b's Heat as a board of coloured squares on a diverging
// scale symmetric about zero (red below, white at zero, blue above, the
// largest magnitude at full colour; grey where the value is NaN), each
// square's value written in it and given, with its name, on hover, and a
// legend of the scale's range below.
func HeatmapSVG(b games.Board) template.HTML {
	top := 0.0
	for _, v := range b.Heat {
		if !math.IsNaN(v) {
			top = math.Max(top, math.Abs(v))
		}
	}
	width, boardH := labelSpace+b.Files*heatCell+2, labelSpace+b.Ranks*heatCell
	height := boardH + 8 + 12 + 14
	var s strings.Builder
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif">`, width, height, width, height)
	s.WriteString("\n")
	coordinates(&s, b, heatCell)
	for sq, v := range b.Heat {
		if sq >= b.Files*b.Ranks {
			break
		}
		x, y := labelSpace+sq%b.Files*heatCell, labelSpace+sq/b.Files*heatCell
		text := "no value"
		if !math.IsNaN(v) {
			text = fmt.Sprintf("%+.4g", v)
		}
		fmt.Fprintf(&s, `<g><title>%s: %s</title><rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#fff"/>`,
			esc(squareName(sq, b)), text, x, y, heatCell, heatCell, diverging(v, top))
		if !math.IsNaN(v) {
			ink := "#222"
			if math.Abs(v) > 0.6*top {
				ink = "#fff"
			}
			fmt.Fprintf(&s, `<text x="%d" y="%d" font-size="8" text-anchor="middle" fill="%s">%s</text>`, x+heatCell/2, y+heatCell/2+3, ink, shortNumber(v))
		}
		s.WriteString("</g>\n")
	}
	// The legend: legendStep steps from -top to +top, the range below.
	stepW := float64(b.Files*heatCell) / legendStep
	for i := range legendStep {
		v := top * (2*float64(i)/(legendStep-1) - 1)
		fmt.Fprintf(&s, `<rect x="%.1f" y="%d" width="%.1f" height="12" fill="%s"><title>%+.4g</title></rect>`, float64(labelSpace)+float64(i)*stepW, boardH+8, stepW+0.5, diverging(v, top), v)
	}
	fmt.Fprintf(&s, "\n"+`<text x="%d" y="%d" font-size="10">%s</text><text x="%d" y="%d" font-size="10" text-anchor="middle">0</text><text x="%d" y="%d" font-size="10" text-anchor="end">%s</text>`,
		labelSpace, height-2, fmt.Sprintf("%+.3g", -top), labelSpace+b.Files*heatCell/2, height-2, labelSpace+b.Files*heatCell, height-2, fmt.Sprintf("%+.3g", top))
	s.WriteString("\n</svg>")
	return template.HTML(s.String())
}

// ConfigurationSVG draws b's Marks as a small board (a black disc the side
// to move's, a white disc the opponent's, green an empty square of the
// pattern, grey a square outside it), its value written below; hovering
// over a square of the pattern names it and what is on it.
func ConfigurationSVG(b games.Board) template.HTML {
	width, boardH := b.Files*configCell+2, b.Ranks*configCell+2
	height := boardH + 14
	var s strings.Builder
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif">`, width, height, width, height)
	// The squares outside the pattern: one grey board ruled in white.
	fmt.Fprintf(&s, `<rect x="1" y="1" width="%d" height="%d" fill="#e4e4e4"/><path stroke="#fff" stroke-width="0.5" d="`, b.Files*configCell, b.Ranks*configCell)
	for f := 1; f < b.Files; f++ {
		fmt.Fprintf(&s, "M%d 1v%d", 1+f*configCell, b.Ranks*configCell)
	}
	for r := 1; r < b.Ranks; r++ {
		fmt.Fprintf(&s, "M1 %dh%d", 1+r*configCell, b.Files*configCell)
	}
	s.WriteString(`"/>` + "\n")
	for sq := 0; sq < len(b.Marks) && sq < b.Files*b.Ranks; sq++ {
		x, y := 1+sq%b.Files*configCell, 1+sq/b.Files*configCell
		m := b.Marks[sq]
		if m == ' ' {
			continue
		}
		fill, what := "#2e7d32", "empty"
		switch m {
		case 'X':
			what = "the side to move"
		case 'O':
			what = "the opponent"
		}
		fmt.Fprintf(&s, `<g><title>%s: %s</title><rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#fff" stroke-width="0.5"/>`,
			esc(squareName(sq, b)), what, x, y, configCell, configCell, fill)
		if m == 'X' || m == 'O' {
			disc := map[byte]string{'X': "#111", 'O': "#fafafa"}[m]
			fmt.Fprintf(&s, `<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s" stroke="#111" stroke-width="0.6"/>`,
				float64(x)+configCell/2.0, float64(y)+configCell/2.0, configCell/2.0-1.5, disc)
		}
		s.WriteString("</g>\n")
	}
	fmt.Fprintf(&s, `<text x="%d" y="%d" font-size="11" text-anchor="middle">%s</text>`, width/2, height-2, fmt.Sprintf("%+.4g", b.Value))
	s.WriteString("\n</svg>")
	return template.HTML(s.String())
}

// coordinates writes the files' letters (or the columns' names) above a
// board and, without named columns, the ranks' numbers to its left, row 0
// (rank 1) at the top.
func coordinates(s *strings.Builder, b games.Board, cell int) {
	for f := range b.Files {
		fmt.Fprintf(s, `<text x="%d" y="%d" font-size="10" text-anchor="middle" fill="#666">%s</text>`, labelSpace+f*cell+cell/2, labelSpace-3, esc(fileName(f, b)))
	}
	if b.Columns != nil {
		s.WriteString("\n")
		return
	}
	for r := range b.Ranks {
		fmt.Fprintf(s, `<text x="%d" y="%d" font-size="10" text-anchor="middle" fill="#666">%d</text>`, labelSpace/2, labelSpace+r*cell+cell/2+4, rankOf(r, b))
	}
	s.WriteString("\n")
}

// rankOf is the number of row r of b: from 1 at the top, or from Ranks at
// the top with TopRankFirst.
func rankOf(r int, b games.Board) int {
	if b.TopRankFirst {
		return b.Ranks - r
	}
	return r + 1
}

// squareName is a square's name on b: its file's letter and its rank's
// number (rankOf), or its column's name when b names its columns.
func squareName(sq int, b games.Board) string {
	if b.Columns != nil {
		return fileName(sq%b.Files, b)
	}
	return fmt.Sprintf("%c%d", 'a'+sq%b.Files, rankOf(sq/b.Files, b))
}

// fileName is column f's name on b: its Columns entry, or a file's letter.
func fileName(f int, b games.Board) string {
	if b.Columns != nil {
		if f < len(b.Columns) {
			return b.Columns[f]
		}
		return ""
	}
	return string(rune('a' + f))
}

// diverging is the colour of v on a scale from -top (red) through zero
// (white) to +top (blue); grey for NaN.
func diverging(v, top float64) string {
	if math.IsNaN(v) {
		return "#cccccc"
	}
	t := 0.0
	if top > 0 {
		t = math.Max(-1, math.Min(1, v/top))
	}
	// The ends: red (215, 48, 39) and blue (69, 117, 180).
	end := [3]float64{69, 117, 180}
	if t < 0 {
		end, t = [3]float64{215, 48, 39}, -t
	}
	var c [3]int
	for i, e := range end {
		c[i] = int(math.Round(255 + (e-255)*t))
	}
	return fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2])
}

// shortNumber writes v in at most five characters for a heatmap's square.
func shortNumber(v float64) string {
	switch a := math.Abs(v); {
	case a >= 9999.5:
		return fmt.Sprintf("%.0e", v)
	case a >= 9.95:
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

// shapeText is a table's shape as "[8 x 6561]".
func shapeText(shape []int) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = fmt.Sprint(d)
	}
	return "[" + strings.Join(parts, " × ") + "]"
}

func esc(s string) string { return template.HTMLEscapeString(s) }
