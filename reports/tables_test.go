package reports

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/games/othello"
	"github.com/gametune/gametune/games/tictactoe"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament"
)

// patternsWith returns Othello's patterns evaluator bound to data made by
// fill (given the zero data and the evaluator).
func patternsWith(t *testing.T, fill func(data []float32, ev *games.Evaluator)) (games.Game, *games.Evaluator) {
	t.Helper()
	g := othello.Game()
	ev, err := games.FindEvaluator(g, "patterns")
	if err != nil {
		t.Fatal(err)
	}
	data := make([]float32, ev.TablesSize())
	fill(data, ev)
	bound, err := ev.WithData(data)
	if err != nil {
		t.Fatal(err)
	}
	return g, bound
}

// svgs returns every inline <svg>...</svg> of page.
func svgs(page string) []string {
	return regexp.MustCompile(`(?s)<svg .*?</svg>`).FindAllString(page, -1)
}

// checkXML decodes doc as XML to its end.
func checkXML(t *testing.T, doc string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(doc))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("not XML: %v\n%.300s", err, doc)
		}
	}
}

// TestTablesSectionRandom: random tables give one valid SVG per board, the
// heatmaps with a legend and a title for every square.
func TestTablesSectionRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	g, ev := patternsWith(t, func(data []float32, _ *games.Evaluator) {
		for i := range data {
			data[i] = float32(rng.NormFloat64() * 20)
		}
	})
	w := ev.Defaults()
	boards := ev.Pictures(ev.Data, w)
	section, err := TablesSection(g, ev, w)
	if err != nil {
		t.Fatal(err)
	}
	pics := svgs(string(section))
	if len(pics) != len(boards) || len(boards) != 8+11*6 {
		t.Fatalf("%d <svg> for %d boards", len(pics), len(boards))
	}
	for i, p := range pics {
		checkXML(t, p)
		titles := strings.Count(p, "<title>")
		if i < 8 {
			// 64 squares and the legend's steps.
			if titles != 64+legendStep {
				t.Errorf("heatmap %d: %d titles", i, titles)
			}
		} else if want := 64 - strings.Count(boards[i].Marks, " "); titles != want {
			t.Errorf("configuration %d: %d titles, want one a square of the pattern, %d", i, titles, want)
		}
	}
	checkXML(t, "<div>"+strings.ReplaceAll(string(section), "<br>", "")+"</div>")
	for _, want := range []string{`id="tables"`, "Tables of othello/patterns", "edge+2X", "[8 × ", "stage 0 (4-11 discs)", "corner3x3, stage 4: worst 3"} {
		if !strings.Contains(string(section), want) {
			t.Errorf("the section lacks %q", want)
		}
	}
}

// TestTablesSectionPlanted: one large entry is drawn as the top
// configuration with its value and its discs, and its square's heat is on
// hover.
func TestTablesSectionPlanted(t *testing.T) {
	g, ev := patternsWith(t, func(data []float32, ev *games.Evaluator) {
		off, table := ev.TableOffset("corner3x3")
		// Stage 4's row, the configuration at place 1 (the reading 1: the
		// side to move's disc on a1, the rest empty).
		data[off+4*table.Shape[1]+1] = 250
	})
	section, err := TablesSection(g, ev, ev.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	s := string(section)
	pics := svgs(s)
	if len(pics) != 9 {
		t.Fatalf("%d pictures, want 8 heatmaps and 1 configuration", len(pics))
	}
	config := pics[8]
	if !strings.Contains(config, ">+250</text>") || !strings.Contains(s, "corner3x3, stage 4: best 1") {
		t.Errorf("the planted configuration's value or title is missing:\n%s", config)
	}
	if n := strings.Count(config, `fill="#111"`); n != 1 || !strings.Contains(config, "<title>a1: the side to move</title>") {
		t.Errorf("%d discs of the side to move, want 1 on a1:\n%s", n, config)
	}
	if strings.Count(config, ": empty</title>") != 8 || strings.Count(config, "<rect ") != 1+9 {
		t.Errorf("the corner3x3 board should have 8 empty squares, a disc, and the board outside:\n%s", config)
	}
	// The configuration is rare at stage 4 but its heat, if any, sits on
	// a corner; the heatmaps of other stages are zero.
	if !strings.Contains(pics[0], "<title>a1: +0</title>") {
		t.Errorf("stage 0's heatmap should be zero at a1:\n%.600s", pics[0])
	}
}

// TestTablesSectionErrors: evaluators without tables and bad weights are
// refused with errors saying so.
func TestTablesSectionErrors(t *testing.T) {
	ttt := tictactoe.Game()
	ev := ttt.Evaluators()[0]
	if _, err := TablesSection(ttt, ev, ev.Defaults()); !errors.Is(err, ErrNoTables) {
		t.Errorf("tic-tac-toe: %v, want ErrNoTables", err)
	}
	g, pe := patternsWith(t, func([]float32, *games.Evaluator) {})
	if _, err := TablesSection(g, pe, pe.Defaults()[1:]); err == nil || !strings.Contains(err.Error(), "weights for the") {
		t.Errorf("short weights: %v", err)
	}
	// Zero tables: heatmaps, and the note that nothing is fitted.
	section, err := TablesSection(g, pe, pe.Defaults())
	if err != nil || len(svgs(string(section))) != 8 || !strings.Contains(string(section), "have not been fitted yet") {
		t.Errorf("zero tables: %v\n%.400s", err, section)
	}
}

// TestWriteTablesPage: the standalone page is written once, refused over
// an existing file without overwrite, and is one document with the section.
func TestWriteTablesPage(t *testing.T) {
	g, ev := patternsWith(t, func(data []float32, ev *games.Evaluator) {
		off, table := ev.TableOffset("edge+2X")
		data[off+4*table.Shape[1]+7] = -99
	})
	path := filepath.Join(t.TempDir(), "tables.html")
	if err := WriteTablesPage(path, "pictures <test>", g, ev, ev.Defaults(), false); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<title>pictures &lt;test&gt;</title>", TablesStyle, "edge+2X, stage 4: worst 1", ">-99</text>"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if err := WriteTablesPage(path, "again", g, ev, ev.Defaults(), false); !errors.Is(err, results.ErrFileExists) {
		t.Errorf("over an existing page: %v, want ErrFileExists", err)
	}
	if err := WriteTablesPage(path, "again", g, ev, ev.Defaults(), true); err != nil {
		t.Errorf("overwrite: %v", err)
	}
}

// TestDiverging: the scale's ends and middle.
func TestDiverging(t *testing.T) {
	for _, c := range []struct {
		v, top float64
		want   string
	}{{0, 1, "#ffffff"}, {1, 1, "#4575b4"}, {-1, 1, "#d73027"}, {-5, 1, "#d73027"}, {3, 0, "#ffffff"}, {math.NaN(), 1, "#cccccc"}} {
		if got := diverging(c.v, c.top); got != c.want {
			t.Errorf("diverging(%g, %g) = %s, want %s", c.v, c.top, got, c.want)
		}
	}
}

// TestReportTables: the report of a real (tiny) run of Othello's patterns
// evaluator holds the tables section; a tic-tac-toe run's report does not.
func TestReportTables(t *testing.T) {
	cfg := smallConfig("genetic")
	cfg.Game, cfg.Evaluator, cfg.Depth = "othello", "patterns", 1
	cfg.Population, cfg.Generations, cfg.Games, cfg.YardstickPairs = 4, 1, 1, 1
	g, err := all.Find(cfg.Game)
	if err != nil {
		t.Fatal(err)
	}
	pool, err := tournament.NewPool(2, 1)
	if err != nil {
		t.Fatal(err)
	}
	store := population.NewMemoryStore()
	tu, err := population.NewTuner(cfg, g, nil, nil, pool, store)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tu.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	r, err := NewRun("patterns", cfg, store.Generations, results.Info{Status: "done"})
	if err != nil {
		t.Fatal(err)
	}
	page, err := HTML(r)
	if err != nil {
		t.Fatal(err)
	}
	section := string(page[bytes.Index(page, []byte(`<section id="tables">`)):])
	section = section[:strings.Index(section, "</section>")]
	if !strings.Contains(section, "Tables of othello/patterns") || len(svgs(section)) < 8+11 || !strings.Contains(section, "best 1") {
		t.Errorf("the report's tables section:\n%.500s", section)
	}
	if !bytes.Contains(page, []byte(TablesStyle)) {
		t.Error("the report lacks the tables' style")
	}
	if page, err := HTML(loadRecorded(t, "genetic")); err != nil || bytes.Contains(page, []byte(`id="tables"`)) {
		t.Errorf("a tic-tac-toe report: %v, tables section %v", err, bytes.Contains(page, []byte(`id="tables"`)))
	}
}

// TestHeatmapTopRankFirst: a chess-style heatmap names row 0 after rank 8
// (its label at the top and its squares' titles), an Othello-style one
// after rank 1.
func TestHeatmapTopRankFirst(t *testing.T) {
	heat := make([]float64, 64)
	heat[0], heat[63] = 12, -7
	for _, c := range []struct {
		top         bool
		first, last string
		label       string
	}{
		{true, "a8: +12", "h1: -7", ">8</text>"},
		{false, "a1: +12", "h8: -7", ">1</text>"},
	} {
		svg := string(HeatmapSVG(games.Board{Title: "t", Files: 8, Ranks: 8, Heat: heat, TopRankFirst: c.top}))
		checkXML(t, svg)
		if !strings.Contains(svg, "<title>"+c.first) || !strings.Contains(svg, "<title>"+c.last) {
			t.Errorf("TopRankFirst %v: want squares titled %q and %q in\n%.600s", c.top, c.first, c.last, svg)
		}
		// The first rank label drawn is row 0's.
		labels := regexp.MustCompile(`fill="#666">(\d)</text>`).FindAllStringSubmatch(svg, -1)
		if len(labels) < 8 || ">"+labels[0][1]+"</text>" != c.label {
			t.Errorf("TopRankFirst %v: row 0's label is %v, want %s", c.top, labels, c.label)
		}
	}
}

// TestHeatmapColumns: a board with named columns (a table read by a
// count) labels its columns with their names, names its squares by them,
// and draws no rank numbers.
func TestHeatmapColumns(t *testing.T) {
	svg := string(HeatmapSVG(games.Board{Title: "t", Files: 3, Ranks: 1, Heat: []float64{0, 1, -3}, Columns: []string{"0", "1", "<2>"}}))
	checkXML(t, svg)
	if !strings.Contains(svg, "<title>&lt;2&gt;: -3</title>") || !strings.Contains(svg, `fill="#666">1</text>`) {
		t.Errorf("want the columns named and the last square titled by its column:\n%s", svg)
	}
	if n := strings.Count(svg, `fill="#666">`); n != 3 {
		t.Errorf("%d labels, want the 3 columns' alone", n)
	}
}

// TestTablesSectionPST: chess's tables are drawn as 32 heatmaps
// (middlegame and endgame of each table) with the evaluator's own words,
// rank 8 at the top (a count table one row of its counts), and no
// configurations section once fitted.
func TestTablesSectionPST(t *testing.T) {
	g, err := all.Find("chess")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := games.FindEvaluator(g, "pst")
	if err != nil {
		t.Fatal(err)
	}
	data := make([]float32, ev.TablesSize())
	off, _ := ev.TableOffset("knight")
	data[off+27] = 40 // the middlegame knight on d4
	off, _ = ev.TableOffset("queen-mobility")
	data[off+64+20] = 15 // the endgame queen with 20 safe squares
	off, _ = ev.TableOffset("threats-on-mover")
	data[off+9] = -30 // the middlegame pawn attacking an undefended queen
	off, _ = ev.TableOffset("pawn-shelter")
	data[off+64+10] = 12 // the endgame pawn on b3 or g3 before its king
	bound, err := ev.WithData(data)
	if err != nil {
		t.Fatal(err)
	}
	section, err := TablesSection(g, bound, ev.Scratch)
	if err != nil {
		t.Fatal(err)
	}
	page := string(section)
	if n := len(svgs(page)); n != 32 {
		t.Errorf("%d boards, want 32", n)
	}
	if !strings.Contains(page, esc(ev.PicturesDoc)) || strings.Contains(page, "Strongest configurations") {
		t.Errorf("the section has not the pst words, or has a configurations section:\n%.2000s", page)
	}
	if !strings.Contains(page, "<title>d4: +40") || !strings.Contains(page, "knight middlegame") {
		t.Errorf("the knight's d4 entry is not drawn as d4: +40")
	}
	if !strings.Contains(page, "<title>20: +15") || !strings.Contains(page, "queen-mobility endgame") {
		t.Errorf("the queen's mobility entry 20 is not drawn as 20: +15")
	}
	if !strings.Contains(page, "<title>PxQ!: -30") || !strings.Contains(page, "threats-on-mover middlegame") {
		t.Errorf("threats-on-mover's entry 9 is not drawn as PxQ!: -30")
	}
	if !strings.Contains(page, "<title>shelter bg 3: +12") || !strings.Contains(page, "pawn-shelter endgame") {
		t.Errorf("pawn-shelter's entry 10 is not drawn as shelter bg 3: +12")
	}
	zero, _ := ev.WithData(make([]float32, ev.TablesSize()))
	section, err = TablesSection(g, zero, ev.Scratch)
	if err != nil || !strings.Contains(string(section), "not been fitted") {
		t.Errorf("zero tables: want the words that they are not fitted (err %v)", err)
	}
}
