package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/tournament/stats"
)

// TestReadView: the view of a recorded run holds what the run recorded,
// its evaluator and the best population.ChooseBest names; OpenView reads
// the same from the directory.
func TestReadView(t *testing.T) {
	r, cfg := recordedRun(t)
	v, err := ReadView(r)
	if err != nil {
		t.Fatal(err)
	}
	hist, _ := r.Generations()
	ladder, _ := r.Ladder()
	r.Close()
	if v.Name != "run" || v.Game.Name() != "tictactoe" || !reflect.DeepEqual(v.Generations, hist) || !reflect.DeepEqual(v.Ladder, ladder) {
		t.Fatalf("view %s of %s, evaluator %s, %d generations, ladder %v", v.Name, v.Game.Name(), v.Evaluator.Name, len(v.Generations), v.Ladder)
	}
	want, err := population.ChooseBest(v.Evaluator, cfg, hist, ladder, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v.Best, want) {
		t.Errorf("best %s, want %s", v.Best.Summary(), want.Summary())
	}
	if want := fmt.Sprintf("%d/%d games", v.Info.Games, v.Info.Games); v.Info.Status != StatusDone || v.Progress() != want {
		t.Errorf("progress %q of a run %s, want %s", v.Progress(), v.Info.Status, want)
	}
	again, err := OpenView(r.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Best, v.Best) || !reflect.DeepEqual(again.Generations, v.Generations) {
		t.Error("OpenView reads another view than ReadView")
	}
}

// TestViewDamaged: weights that do not fit the evaluator, in a generation
// or on the ladder, are ErrDamaged; an unknown game is named.
func TestViewDamaged(t *testing.T) {
	cfg := population.Defaults()
	cfg.Game, cfg.Evaluator = "tictactoe", "lines"
	short := []population.Generation{{Genomes: []population.Genome{{ID: 0, Weights: []float64{1}}}, Mean: []float64{1}, Std: []float64{0}}}
	if _, err := NewView("x", cfg, Info{}, short, nil); !errors.Is(err, ErrDamaged) {
		t.Errorf("short genome: %v, want ErrDamaged", err)
	}
	v, err := NewView("x", cfg, Info{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	bad := &population.Ladder{Entries: []population.LadderEntry{{Label: "g0", Weights: []float64{1}}}}
	if err := v.SetLadder(bad); !errors.Is(err, ErrDamaged) {
		t.Errorf("short ladder entry: %v, want ErrDamaged", err)
	}
	cfg.Game = "go"
	if _, err := NewView("x", cfg, Info{}, nil, nil); err == nil || !strings.Contains(err.Error(), `unknown game "go"`) {
		t.Errorf("unknown game: %v", err)
	}
}

// TestViewJSON: the shapes every reader prints: the best and each ladder
// entry with weights by feature name, the best's weights with their
// ranges in the evaluator's order, infinite bounds as null.
func TestViewJSON(t *testing.T) {
	cfg := population.Defaults()
	cfg.Game, cfg.Evaluator = "tictactoe", "lines"
	v, err := NewView("x", cfg, Info{Generations: 1}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := len(v.Evaluator.Features)
	w := make([]float64, n)
	for i := range w {
		w[i] = float64(i + 1)
	}
	hist := []population.Generation{{Genomes: []population.Genome{{ID: 3, Weights: w}}, Best: 3, Mean: w, Std: make([]float64, n), Spent: 40,
		Yardstick: &population.Yardstick{Genome: 3, WDL: stats.WDL{Wins: 10}, Score: 1, Elo: math.Inf(1), EloLow: 290, EloHigh: math.Inf(1), Previous: population.NoGenome}}}
	if v, err = NewView("x", cfg, Info{Generations: 1}, hist, nil); err != nil {
		t.Fatal(err)
	}
	ladder := &population.Ladder{Pairs: 2, Reference: 0, Best: 1, BestLow: 10, BestHigh: math.Inf(1), Entries: []population.LadderEntry{
		{Label: "defaults", Genome: population.DefaultsID, Generation: -1, Weights: v.Evaluator.Defaults()},
		{Label: "g0", Genome: 3, Weights: w, Elo: 100, Low: 10, High: math.Inf(1)}}}
	if err := v.SetLadder(ladder); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(v.JSON())
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Progress string `json:"progress"`
		Weights  []struct {
			Name  string  `json:"name"`
			Value float64 `json:"value"`
		} `json:"best_weights"`
		Best struct {
			Label   string             `json:"label"`
			Weights map[string]float64 `json:"weights"`
		} `json:"best"`
		Ladder struct {
			Strongest string `json:"strongest"`
			Entries   []struct {
				High    *float64           `json:"elo_high"`
				Weights map[string]float64 `json:"weights"`
			} `json:"entries"`
		} `json:"ladder"`
		Yardstick []struct {
			Low  float64  `json:"elo_low"`
			High *float64 `json:"elo_high"`
		} `json:"yardstick"`
		Spent int `json:"games_spent"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	f0 := v.Evaluator.Features[0].Name
	if got.Progress != v.Progress() || !strings.HasSuffix(got.Progress, " games") || got.Best.Label != "g0" || got.Best.Weights[f0] != 1 || got.Ladder.Strongest != "g0" || got.Spent != 40 {
		t.Errorf("run JSON: %s", data)
	}
	if len(got.Weights) != n || got.Weights[n-1].Name != v.Evaluator.Features[n-1].Name || got.Weights[n-1].Value != float64(n) {
		t.Errorf("best_weights %+v", got.Weights)
	}
	if len(got.Ladder.Entries) != 2 || got.Ladder.Entries[1].Weights[f0] != 1 || got.Ladder.Entries[1].High != nil {
		t.Errorf("ladder entries %+v", got.Ladder.Entries)
	}
	if len(got.Yardstick) != 1 || got.Yardstick[0].Low != 290 || got.Yardstick[0].High != nil {
		t.Errorf("yardstick %+v", got.Yardstick)
	}
}

// TestProgress: every run shows its games against the games it plays in
// all: its games budget, or those of its planned length, yardstick and
// ladder (ExpectedGames: 1,860 here, of which 1,280 the tuner's); with a
// time budget alone, at the pace so far (1,200 games in an hour, 8 hours:
// all the planned games); a finished run its own games.
func TestProgress(t *testing.T) {
	cfg := population.Defaults()
	cfg.Generations, cfg.YardstickEvery = 10, 3
	in := Info{Games: 1200, Generations: 3, Seconds: 3600, Status: StatusRunning}
	planned := cfg.ExpectedGames(nil, 1200, 3600)
	if planned != 1860 {
		t.Fatalf("expected games %d, want 1860", planned)
	}
	for _, tc := range []struct {
		games int
		time  string
		want  string
	}{{0, "", fmt.Sprintf("1200/%d games", planned)}, {20000, "", "1200/20000 games"}, {0, "8h", fmt.Sprintf("1200/%d games, budget 8h", planned)}, {20000, "8h", "1200/20000 games, budget 8h"}} {
		c := cfg
		c.BudgetGames, c.BudgetTime = tc.games, tc.time
		v := &View{Config: c, Info: in}
		if got := v.Progress(); got != tc.want {
			t.Errorf("budget %d games, %q: progress %q, want %q", tc.games, tc.time, got, tc.want)
		}
		if got, want := c.GenerationOf(2), map[bool]string{false: "generation 3/10", true: "generation 3"}[c.Budgeted()]; got != want {
			t.Errorf("budget %d games, %q: %q, want %q", tc.games, tc.time, got, want)
		}
	}
}
