package thinker_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// TestThinkerParams: the settings a GUI may change, with the game's
// defaults, set and refused by name and range; a selective thinker still
// finds tic-tac-toe's won move.
func TestThinkerParams(t *testing.T) {
	th := newThinker(t, "tictactoe", thinker.Options{TableMiB: 1})
	values := func() map[string]int {
		m := map[string]int{}
		for _, p := range th.Params() {
			m[p.Name] = p.Value
		}
		return m
	}
	v := values()
	if v[thinker.SelectiveParam] != 0 || v["lmr-base"] != 75 || v["time-horizon"] != 16 || th.Search() != "exact" {
		t.Errorf("defaults: %v, search %s", v, th.Search())
	}
	for name, value := range map[string]int{thinker.SelectiveParam: 1, "lmr-base": 80, "time-horizon": 30} {
		if err := th.SetParam(name, value); err != nil {
			t.Errorf("SetParam(%s, %d): %v", name, value, err)
		}
	}
	v = values()
	if v[thinker.SelectiveParam] != 1 || v["lmr-base"] != 80 || v["time-horizon"] != 30 || th.Search() != "selective" || th.TimeParams().Horizon != 30 {
		t.Errorf("after SetParam: %v, search %s", v, th.Search())
	}
	for name, value := range map[string]int{thinker.SelectiveParam: 2, "lmr-base": 301, "time-horizon": 4, "nothing": 1} {
		if err := th.SetParam(name, value); err == nil {
			t.Errorf("SetParam(%s, %d) accepted", name, value)
		}
	}
	if v2 := values(); v2["lmr-base"] != 80 || v2[thinker.SelectiveParam] != 1 {
		t.Errorf("a refused value changed the settings: %v", v2)
	}
	p, _ := th.Game().ParsePosition("xx-oo----")
	var got games.Thought
	if err := th.Think(context.Background(), p, games.ThinkLimits{Depth: 5}, func(r games.Thought) { got = r }); err != nil {
		t.Fatal(err)
	}
	th.Wait()
	if p.FormatMove(got.Move) != "c1" {
		t.Errorf("the selective thinker plays %s in %s, want the win c1", p.FormatMove(got.Move), p)
	}
}

// TestParamNamesAreNotFeatures: no setting a GUI sees shares its name with
// a feature weight of any evaluator (both are UCI options).
func TestParamNamesAreNotFeatures(t *testing.T) {
	names := map[string]bool{thinker.SelectiveParam: true}
	for _, p := range engine.SearchParamList() {
		names[p.Name] = true
	}
	for _, p := range thinker.TimeParamList() {
		names[p.Name] = true
	}
	for _, g := range all.Games() {
		for _, ev := range g.Evaluators() {
			for _, f := range ev.Features {
				if names[strings.ToLower(f.Name)] {
					t.Errorf("%s %s: feature %s is also an engine setting", g.Name(), ev.Name, f.Name)
				}
			}
		}
	}
}

// TestTunable lists what each game's engine lets a tuner set besides its
// weights: null move and the exchange margin in chess, Multi-ProbCut in
// Othello and not null move (zugzwang is the rule there), the clock's
// constants in both.
func TestTunable(t *testing.T) {
	names := func(game string) map[string]bool {
		g, err := all.Find(game)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, f := range thinker.Tunable(g.Start()) {
			out[f.Name] = true
		}
		return out
	}
	chessList, othelloList := names("chess"), names("othello")
	for _, want := range []string{"null-reduction", "see-margin", "lmr-base", "rfp-margin", "time-horizon"} {
		if !chessList[want] {
			t.Errorf("chess does not list %s", want)
		}
	}
	for _, want := range []string{"probcut-threshold", "lmr-base", "time-growth"} {
		if !othelloList[want] {
			t.Errorf("othello does not list %s", want)
		}
	}
	for _, not := range []string{"null-reduction", "null-min-depth", "see-margin"} {
		if othelloList[not] {
			t.Errorf("othello lists %s, a technique it does not offer", not)
		}
	}
	if chessList["probcut-threshold"] {
		t.Error("chess lists probcut-threshold, a technique it does not offer")
	}
}

// TestParamsOfTheGame: a GUI sees only the parameters of the techniques
// its game offers: chess's null move and exchange margin, Othello's
// ProbCut, neither's in the other, and tic-tac-toe none of the three.
func TestParamsOfTheGame(t *testing.T) {
	for _, c := range []struct {
		game     string
		has, not []string
	}{
		{"chess", []string{"null-reduction", "see-margin", "lmr-base"}, []string{"probcut-threshold"}},
		{"othello", []string{"probcut-threshold", "lmr-base"}, []string{"null-reduction", "null-eval-margin", "see-margin"}},
		{"tictactoe", []string{"lmr-base"}, []string{"null-reduction", "see-margin", "probcut-threshold"}},
	} {
		names := map[string]bool{}
		for _, p := range newThinker(t, c.game, thinker.Options{TableMiB: 1}).Params() {
			names[p.Name] = true
		}
		for _, n := range c.has {
			if !names[n] {
				t.Errorf("%s: no parameter %s", c.game, n)
			}
		}
		for _, n := range c.not {
			if names[n] {
				t.Errorf("%s: parameter %s, a technique the game does not offer", c.game, n)
			}
		}
	}
}
