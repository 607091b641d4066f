package reports

import (
	"bytes"
	"context"
	"encoding/gob"
	"flag"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament"
)

var update = flag.Bool("update", false, "rewrite the recorded runs and golden plots in testdata")

// updatePlots rewrites the golden plots from the recorded runs as they are,
// without playing them again: for a change of drawing alone.
var updatePlots = flag.Bool("update-plots", false, "rewrite the golden plots in testdata from the recorded runs")

// recorded is a run kept in testdata: its config and generations.
type recorded struct {
	Config      population.Config
	Generations []population.Generation
	Ladder      *population.Ladder
}

func smallConfig(algo string) population.Config {
	c := population.Defaults()
	c.Game, c.Depth, c.Openings, c.Algo = "tictactoe", 2, "", population.Algo(algo)
	c.Population, c.Generations, c.Games, c.YardstickPairs = 8, 6, 3, 3
	c.Candidates, c.Rounds, c.Scale, c.Ties = 5, 5, 1, "random"
	return c
}

// loadRecorded reads testdata/NAME-run.gob (gob keeps infinite Elo bounds); with -update it first plays
// the run again with the real tuner.
func loadRecorded(t *testing.T, algo string) *Run {
	t.Helper()
	path := filepath.Join("testdata", algo+"-run.gob")
	if *update {
		cfg := smallConfig(algo)
		g, _ := all.Find(cfg.Game)
		pool, _ := tournament.NewPool(2, 1)
		store := population.NewMemoryStore()
		tu, err := population.NewTuner(cfg, g, nil, nil, pool, store)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tu.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := gob.NewEncoder(&b).Encode(recorded{cfg, store.Generations, store.Ladder}); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rec recorded
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&rec); err != nil {
		t.Fatal(err)
	}
	r, err := NewRun(algo, rec.Config, rec.Generations, results.Info{Status: "done", Games: 400, Seconds: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetLadder(rec.Ladder); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestGoldenPlots draws every plot of a recorded genetic run and a recorded
// knockout run and compares the SVG with the golden files byte for byte,
// and checks the PNG decodes at the figure's size. The SVG is drawn twice:
// the same run gives the same bytes.
func TestGoldenPlots(t *testing.T) {
	for _, algo := range []string{"genetic", "knockout"} {
		r := loadRecorded(t, algo)
		figs, err := r.Figures()
		if err != nil {
			t.Fatal(err)
		}
		want := 4 // Elo against games spent first, then coefficients, fitness, diversity
		if algo == "knockout" {
			want = 3 // Elo, winners, distance
		}
		if len(figs) != want || figs[0].Name != "elo" {
			t.Fatalf("%s: %d figures, the first %q; want %d, Elo against games spent first", algo, len(figs), figs[0].Name, want)
		}
		for _, f := range figs {
			svg, err := f.SVG()
			if err != nil {
				t.Fatal(err)
			}
			again, _ := f.SVG()
			if !bytes.Equal(svg, again) {
				t.Errorf("%s/%s: two renderings differ", algo, f.Name)
			}
			golden := filepath.Join("testdata", algo+"-"+f.Name+".svg")
			goldenPNG := filepath.Join("testdata", algo+"-"+f.Name+".png")
			pngData, err := f.PNG()
			if err != nil {
				t.Fatal(err)
			}
			if *update || *updatePlots {
				if err := os.WriteFile(golden, svg, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(goldenPNG, pngData, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			exp, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if !bytes.Equal(svg, exp) {
				t.Errorf("%s: differs from %s (run with -update after checking the new image)", f.Name, golden)
			}
			img, err := png.Decode(bytes.NewReader(pngData))
			if err != nil {
				t.Fatal(err)
			}
			if w := img.Bounds().Dx(); w != int(f.Width.Dots(96)+0.5) {
				t.Errorf("%s: PNG %d pixels wide, want %v", f.Name, w, f.Width.Dots(96))
			}
			comparePNG(t, goldenPNG, img)
		}
	}
}

func TestHTML(t *testing.T) {
	for _, algo := range []string{"genetic", "knockout"} {
		r := loadRecorded(t, algo)
		page, err := HTML(r)
		if err != nil {
			t.Fatal(err)
		}
		s := string(page)
		wants := []string{"<!DOCTYPE html>", `id="best-weights"`, `id="yardstick"`, `id="history"`, `id="plot-elo"`, "open-mine", "games/s"}
		if algo == "genetic" {
			wants = append(wants, `id="plot-coefficients"`, `id="plot-fitness"`, `id="plot-diversity"`)
		}
		for _, want := range wants {
			if !strings.Contains(s, want) {
				t.Errorf("%s report lacks %q", algo, want)
			}
		}
		if algo == "knockout" && (!strings.Contains(s, `id="bracket"`) || !strings.Contains(s, `id="plot-distance"`)) {
			t.Error("knockout report lacks its bracket or distance plot")
		}
		// The plan and the config count the genetic games key as pairs.
		if algo == "genetic" && (!strings.Contains(s, fmt.Sprintf("each playing %d pairs (%d games)", r.Config.Games, 2*r.Config.Games)) ||
			!strings.Contains(s, fmt.Sprintf("games: %d # genetic: pairs per genome", r.Config.Games))) {
			t.Errorf("genetic report does not say its games key counts pairs")
		}
		// Generations are numbered from 1, as the terminal and tune show do.
		stage, n := r.stage(), len(r.Generations)
		if first := "<tr><th>" + stage + "</th><th>genome</th><th>vs defaults</th><th>score</th><th>rating</th><th>95% interval</th></tr>\n<tr><td>1</td>"; !strings.Contains(s, first) {
			t.Errorf("%s report's yardstick does not start at %s 1", algo, stage)
		}
		if last := fmt.Sprintf("(%s %d)", stage, n); algo == "knockout" && !strings.Contains(s, "Last knockout bracket "+last) {
			t.Errorf("knockout report's bracket is not named %s, the last of %d", last, n)
		}
		for _, banned := range []string{"http://", "https://", "<script", "<link"} {
			if strings.Contains(strings.ReplaceAll(s, "http://www.w3.org", ""), banned) {
				t.Errorf("%s report is not self-contained: %q", algo, banned)
			}
		}
	}
}

func TestNoData(t *testing.T) {
	r, err := NewRun("empty", smallConfig("genetic"), nil, results.Info{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Figures(); err != ErrNoData {
		t.Fatalf("got %v", err)
	}
	if _, err := WritePlots(r, t.TempDir(), "gif"); err == nil {
		t.Fatal("gif accepted")
	}
}

// TestBrowser renders the report in a real browser (Debian's chromium) when
// one is installed: the page loads and every plot is in the rendered DOM,
// and the screenshot is a picture, not a blank page.
func TestBrowser(t *testing.T) {
	browser, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium: install it with scripts/render-report.sh or apt-get install chromium")
	}
	if testing.Short() {
		t.Skip("starts a browser")
	}
	r := loadRecorded(t, "knockout")
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := WriteHTML(r, page); err != nil {
		t.Fatal(err)
	}
	flags := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir=" + filepath.Join(dir, "profile")}
	dom, err := exec.Command(browser, append(flags, "--dump-dom", "file://"+page)...).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	for _, id := range []string{"plot-elo", "plot-winners", "plot-distance", "bracket", "best-weights", "history"} {
		if !strings.Contains(string(dom), `id="`+id+`"`) {
			t.Errorf("rendered page lacks %s", id)
		}
	}
	if n := strings.Count(string(dom), "<svg"); n < 3 {
		t.Errorf("rendered page has %d svg elements, want 3", n)
	}
	shot := filepath.Join(dir, "report.png")
	out, err := exec.Command(browser, append(flags, "--screenshot="+shot, "--window-size=1280,2400", "file://"+page)...).CombinedOutput()
	if err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	colours := map[[3]uint32]bool{}
	for y := 0; y < img.Bounds().Dy(); y += 7 {
		for x := 0; x < img.Bounds().Dx(); x += 7 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, b >> 8}] = true
		}
	}
	if len(colours) < 20 {
		t.Fatalf("the screenshot has %d colours: a blank page?", len(colours))
	}
}

// comparePNG compares a drawn image with a golden PNG pixel by pixel (the
// decoded pixels, not the bytes, which depend on the encoder's settings).
func comparePNG(t *testing.T, golden string, got image.Image) {
	t.Helper()
	f, err := os.Open(golden)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", golden, err)
	}
	if want.Bounds() != got.Bounds() {
		t.Fatalf("%s: drawn %v, golden %v", golden, got.Bounds(), want.Bounds())
	}
	diff := 0
	b := want.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, a1 := want.At(x, y).RGBA()
			r2, g2, b2, a2 := got.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				diff++
			}
		}
	}
	if diff > 0 {
		t.Errorf("%s: %d of %d pixels differ (run with -update after looking at the new image)", golden, diff, b.Dx()*b.Dy())
	}
}

func TestCountTicks(t *testing.T) {
	var labels []string
	for _, tk := range (countTicks{}).Ticks(0, 28000) {
		labels = append(labels, tk.Label)
	}
	if got := strings.Join(labels, " "); got != "0 5000 10000 15000 20000 25000" {
		t.Fatalf("ticks of 0-28000: %s", got)
	}
	if n := len((countTicks{}).Ticks(0, 7)); n != 4 {
		t.Fatalf("ticks of 0-7: %d, want 0, 2, 4, 6", n)
	}
}

// TestPlainTicks: a plot's value axis is labelled without needless
// decimals ("750", not "750.00"), and a fraction keeps its own.
func TestPlainTicks(t *testing.T) {
	for _, r := range [][2]float64{{0, 1500}, {-800, 800}, {0.2, 0.7}, {700, 760}} {
		for _, tk := range (plainTicks{}).Ticks(r[0], r[1]) {
			if tk.Label == "" {
				continue
			}
			if strings.Contains(tk.Label, ".") && strings.HasSuffix(tk.Label, "0") {
				t.Errorf("range %v: tick %q has a needless decimal", r, tk.Label)
			}
			if v, err := strconv.ParseFloat(tk.Label, 64); err != nil || math.Abs(v-tk.Value) > 1e-9*math.Max(1, math.Abs(tk.Value)) {
				t.Errorf("range %v: tick %q does not read as its value %v", r, tk.Label, tk.Value)
			}
		}
	}
}
