package cluster

import (
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
)

// TestNewJobRefusesOtherTables: a worker plays the tables of the game's own
// evaluator, so a player with other tables (loaded from a file) is refused
// with the file's name; the game's own tables, or equal ones, travel.
func TestNewJobRefusesOtherTables(t *testing.T) {
	g, err := all.Find("othello")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := games.FindEvaluator(g, "patterns")
	if err != nil {
		t.Fatal(err)
	}
	own := tournament.Player{Name: "default:patterns", Evaluator: ev, Weights: ev.Defaults(), Limits: engine.Limits{Depth: 2}}
	data := append([]float32(nil), ev.Data...)
	equal, err := ev.WithData(data)
	if err != nil {
		t.Fatal(err)
	}
	data2 := append([]float32(nil), data...)
	data2[len(data2)/2] = 0.5
	other, err := ev.WithData(data2)
	if err != nil {
		t.Fatal(err)
	}
	loaded := tournament.Player{Name: "learned.weights", Evaluator: other, Weights: ev.Defaults(), Limits: own.Limits}
	same := loaded
	same.Evaluator = equal
	for _, pair := range [][2]tournament.Player{{own, own}, {own, same}} {
		if _, err := NewJob(tournament.GameSpec{Game: g, First: pair[0], Second: pair[1]}, 2); err != nil {
			t.Errorf("%s against %s: %v", pair[0].Name, pair[1].Name, err)
		}
	}
	for _, pair := range [][2]tournament.Player{{own, loaded}, {loaded, own}} {
		_, err := NewJob(tournament.GameSpec{Game: g, First: pair[0], Second: pair[1]}, 2)
		if err == nil || !strings.Contains(err.Error(), "tables loaded from learned.weights play on the local pool only") {
			t.Errorf("%s against %s: %v", pair[0].Name, pair[1].Name, err)
		}
	}
}
