package tournament

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament/stats"
)

// TestPlayFormatKnockout: the knockout of TestKnockoutTournamentKnownAnswer
// as data: A's bye, B's two wins, B the winner, the standings named.
func TestPlayFormatKnockout(t *testing.T) {
	g, _ := all.Find("tictactoe")
	got, err := PlayFormat(context.Background(), &strengthRunner{}, strengthPlayers(2, 3, 1), "knockout", BracketOptions{BestOf: 3}, Options{Game: g})
	if err != nil {
		t.Fatal(err)
	}
	want := []BracketJSON{
		{Round: 0, A: "A", B: "bye", Winner: "A"},
		{Round: 0, A: "B", B: "C", ScoreA: 3, Games: 3, Winner: "B"},
		{Round: 1, A: "A", B: "B", ScoreB: 3, Games: 3, Winner: "B"},
	}
	if got.Game != "tictactoe" || got.Format != "knockout" || got.Winner != "B" || !reflect.DeepEqual(got.Bracket, want) {
		t.Fatalf("%+v", got)
	}
	if s := got.Standings; len(s) != 3 || s[0].Player != "B" || s[0].Games != 6 || s[0].Points != 6 || s[0].Score != 1 || s[2].Player != "C" {
		t.Errorf("standings %+v", got.Standings)
	}
}

// TestPlayFormatRoundRobin: the standings of a round robin, best first,
// as JSON with the infinite Elo of a clean sweep written as null; an
// unknown format is refused before any game.
func TestPlayFormatRoundRobin(t *testing.T) {
	g, _ := all.Find("tictactoe")
	got, err := PlayFormat(context.Background(), &strengthRunner{}, strengthPlayers(2, 3, 1), "roundrobin", BracketOptions{}, Options{Game: g, Pairs: 1})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), `{"game":"tictactoe","format":"roundrobin","standings":[{"player":"B","games":4,"wins":4,"draws":0,"losses":0,"points":4,"score":1,"elo":null,`) ||
		strings.Contains(string(data), "bracket") || strings.Contains(string(data), "winner") {
		t.Errorf("%s", data)
	}
	run := &strengthRunner{}
	if _, err := PlayFormat(context.Background(), run, strengthPlayers(2, 3), "swiss", BracketOptions{}, Options{Game: g, Pairs: 1}); err == nil || len(run.played) > 0 {
		t.Errorf("swiss: %v after %d games", err, len(run.played))
	}
	if IsFormat("swiss") || !IsFormat("gauntlet") {
		t.Error("IsFormat")
	}
}

// TestMatchJSON: a match A=3 against B=1 as data: A wins every game, its
// Elo is infinite (null in JSON), and the SPRT is reported with its bounds.
func TestMatchJSON(t *testing.T) {
	g, _ := all.Find("tictactoe")
	players := strengthPlayers(3, 1)
	sprt := stats.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	res, err := RunMatch(context.Background(), &strengthRunner{}, MatchSpecs(g, players[0], players[1], 2, nil, 0, Adjudication{}), &sprt, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := res.JSON("tictactoe", "A", "B")
	lo, hi := sprt.Bounds()
	if m.Games != 4 || m.Pairs != 2 || m.Wins != 4 || m.Score != 1 || m.Pentanomial != [5]int{0, 0, 0, 0, 2} ||
		m.SPRT == nil || m.SPRT.Lower != lo || m.SPRT.Upper != hi || m.SPRT.Status != res.Status.String() {
		t.Fatalf("%+v", m)
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"elo":null`) || !strings.Contains(string(data), `"interrupted":false`) {
		t.Errorf("%s", data)
	}
	if m := (&MatchResult{}).JSON("g", "a", "b"); m.SPRT != nil || m.Score != 0.5 {
		t.Errorf("empty match %+v", m)
	}
}
