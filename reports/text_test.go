package reports

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament/stats"
)

// TestWriteSummary: tune show's text names the best, its weights, the
// ladder with its strongest entry and the yardstick of each generation.
func TestWriteSummary(t *testing.T) {
	r := loadRecorded(t, "genetic")
	var b bytes.Buffer
	WriteSummary(&b, &r.View, "runs/genetic")
	out := b.String()
	for _, want := range []string{"run runs/genetic: ", "evaluator " + r.Evaluator.Name, "best: " + r.Best.Summary(), r.Evaluator.Features[0].Name,
		"ladder (", "strongest", "yardstick (each champion",
		fmt.Sprintf("plan: %d genomes a generation, each playing %d pairs (%d games)", r.Config.Population, r.Config.Games, 2*r.Config.Games)} {
		if !strings.Contains(out, strings.TrimSuffix(want, "\t")) {
			t.Errorf("the summary lacks %q:\n%s", want, out)
		}
	}
	// The yardstick rows number the generations from 1, as the terminal does.
	rows := regexp.MustCompile(`(?m)^  (\d+) +\d+ +\d+ +\d+-\d+-\d+ `).FindAllStringSubmatch(out, -1)
	if len(rows) == 0 || rows[0][1] != "1" || rows[len(rows)-1][1] != strconv.Itoa(len(r.Generations)) {
		t.Errorf("the yardstick rows are %v, want generations 1 to %d:\n%s", rows, len(r.Generations), out)
	}
}

// TestWriteRuns: the runs table gives each run's best with its interval,
// or why it cannot be read.
func TestWriteRuns(t *testing.T) {
	nan := stats.Float(math.NaN())
	lines := []results.RunLineJSON{
		{Info: results.Info{Dir: "a", Game: "nim"}, Progress: "3/4", Best: &results.BestJSON{Label: "g2", Reference: "defaults", Elo: 40, Low: 10, High: 70, Confident: true}},
		{Info: results.Info{Dir: "b"}, Progress: "0/4", BestElo: nan},
		{Info: results.Info{Dir: "c"}, Progress: "2", Damaged: "results: the run's records are damaged"},
		{Info: results.Info{Dir: "d", Game: "nim"}, Progress: "4/4", Best: &results.BestJSON{Label: "defaults", Reference: "defaults", Candidate: "g3", Elo: 75, Low: -5, High: 155}},
		{Info: results.Info{Dir: "e", Game: "nim"}, Progress: "4/4", Best: &results.BestJSON{Label: "defaults", Reference: "defaults", Candidate: "defaults"}},
	}
	var b bytes.Buffer
	WriteRuns(&b, lines)
	for _, want := range []string{"g2 +40 Elo [+10, +70] over the defaults", "0/4", "damaged: results: the run's records are damaged",
		"defaults (strongest g3 +75 Elo [-5, +155]: no gain shown)", "defaults (nothing measured beats them)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, b.String())
		}
	}
}

// TestEloIntervalNeverInfinite: an interval with an infinite bound is said
// in words, never as "+Inf" or "-Inf".
func TestEloIntervalNeverInfinite(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		elo, lo, hi float64
		want        string
	}{
		{35.2, 10.4, 60, "+35 Elo [+10, +60]"},
		{inf, 120.3, inf, "every point won (Elo at least +120)"},
		{-inf, -inf, -120.3, "every point lost (Elo at most -120)"},
		{0, -inf, inf, "no Elo yet (too few games)"},
		{400, -52.7, inf, "+400 Elo (at least -53)"},
	} {
		if got := EloInterval(tc.elo, tc.lo, tc.hi); got != tc.want {
			t.Errorf("EloInterval(%v, %v, %v) = %q, want %q", tc.elo, tc.lo, tc.hi, got, tc.want)
		}
	}
}
