package uci

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/weights"
)

func TestParsePosition(t *testing.T) {
	tests := []struct {
		line string
		want Position
		err  string
	}{
		{"position startpos", Position{}, ""},
		{"position startpos moves e2e4 e7e5", Position{Moves: []string{"e2e4", "e7e5"}}, ""},
		{"position fen 8/8/8/8/8/8/8/K6k w - - 0 1", Position{FEN: "8/8/8/8/8/8/8/K6k w - - 0 1"}, ""},
		{"position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2", Position{FEN: "8/8/8/8/8/8/8/K6k w - - 0 1", Moves: []string{"a1a2"}}, ""},
		{"position", Position{}, "needs startpos"},
		{"position fen moves e2e4", Position{}, "FEN is missing"},
		{"position startpos e2e4", Position{}, "want moves"},
		{"position begin", Position{}, "want startpos or fen"},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			c, err := ParseCommand(tt.line)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ParsePosition(c.Args)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) && !(len(got.Moves) == 0 && len(tt.want.Moves) == 0 && got.FEN == tt.want.FEN) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			if got.String() != tt.line {
				t.Errorf("String() = %q, want %q", got.String(), tt.line)
			}
		})
	}
}

func TestParseGo(t *testing.T) {
	g, err := ParseGo(strings.Fields("wtime 1000 btime -20 winc 10 binc 10 movestogo 5 depth 4 nodes 100 movetime 50 infinite searchmoves e2e4 d2d4 ponder"))
	if err != nil {
		t.Fatal(err)
	}
	want := Go{SearchMoves: []string{"e2e4", "d2d4"}, Ponder: true, WTime: time.Second, BTime: -20 * time.Millisecond,
		WInc: 10 * time.Millisecond, BInc: 10 * time.Millisecond, MovesToGo: 5, Depth: 4, Nodes: 100, MoveTime: 50 * time.Millisecond, Infinite: true, clock: true}
	if !reflect.DeepEqual(g, want) {
		t.Fatalf("got %+v\nwant %+v", g, want)
	}
	back, err := ParseGo(strings.Fields(g.String())[1:])
	if err != nil || !reflect.DeepEqual(back, want) {
		t.Fatalf("round trip %q: %+v, %v", g.String(), back, err)
	}
	for _, bad := range []string{"depth", "depth x", "depth -1", "deep 3", "nodes 99999999999999999999"} {
		if _, err := ParseGo(strings.Fields(bad)); err == nil {
			t.Errorf("go %s: no error", bad)
		}
	}
}

func TestSetOption(t *testing.T) {
	o, err := ParseSetOption(strings.Fields("name Clear Hash"))
	if err != nil || o != (SetOption{Name: "Clear Hash"}) {
		t.Fatalf("%+v %v", o, err)
	}
	o, err = ParseSetOption(strings.Fields("name UCI_Elo value 1800"))
	if err != nil || o != (SetOption{Name: "UCI_Elo", Value: "1800"}) || o.String() != "setoption name UCI_Elo value 1800" {
		t.Fatalf("%+v %v", o, err)
	}
	for _, bad := range []string{"", "value 3", "name", "name value 3"} {
		if _, err := ParseSetOption(strings.Fields(bad)); err == nil {
			t.Errorf("setoption %s: no error", bad)
		}
	}
}

func TestOptionRoundTrip(t *testing.T) {
	opts := []Option{
		{Name: "Hash", Type: "spin", Default: "16", Min: 1, Max: 65536},
		{Name: "Clear Hash", Type: "button"},
		{Name: "UCI_LimitStrength", Type: "check", Default: "false"},
		{Name: "Style", Type: "combo", Default: "Normal", Vars: []string{"Solid", "Normal", "Risky"}},
		{Name: "Debug Log File", Type: "string", Default: "<empty>"},
	}
	for _, o := range opts {
		line := o.String()
		c, _ := ParseCommand(line)
		got, err := ParseOption(c.Args)
		if err != nil || !reflect.DeepEqual(got, o) {
			t.Errorf("%q: got %+v, %v", line, got, err)
		}
	}
}

func TestInfoRoundTrip(t *testing.T) {
	in := Info{Depth: 5, SelDepth: 9, Score: &Score{Mate: true, Value: -3}, Nodes: 12345, NPS: 1000000, Time: 12 * time.Millisecond, PV: []string{"e2e4", "e7e5"}}
	line := in.Format()
	if line != "info depth 5 seldepth 9 score mate -3 nodes 12345 nps 1000000 time 12 pv e2e4 e7e5" {
		t.Fatalf("Format() = %q", line)
	}
	c, _ := ParseCommand(line)
	got, err := ParseInfo(c.Args)
	if err != nil || !reflect.DeepEqual(got, in) {
		t.Fatalf("got %+v, %v", got, err)
	}
	// Stockfish's lines carry words this package does not keep.
	sf := "depth 10 seldepth 12 multipv 1 score cp 35 upperbound nodes 9000 nps 450000 hashfull 3 tbhits 0 time 20 pv e2e4"
	got, err = ParseInfo(strings.Fields(sf))
	if err != nil || got.Score.Value != 35 || got.Score.Bound != "upperbound" || got.PV[0] != "e2e4" || got.Time != 20*time.Millisecond {
		t.Fatalf("stockfish line: %+v, %v", got, err)
	}
	got, err = ParseInfo(strings.Fields("string hello  world"))
	if err != nil || got.String != "hello world" {
		t.Fatalf("info string: %+v %v", got, err)
	}
}

func TestBestMove(t *testing.T) {
	m, err := ParseBestMove([]string{"e2e4", "ponder", "e7e5"})
	if err != nil || m.String() != "bestmove e2e4 ponder e7e5" {
		t.Fatalf("%+v %v", m, err)
	}
	if _, err := ParseBestMove(nil); err == nil {
		t.Fatal("empty bestmove: no error")
	}
}

func TestWeightOptions(t *testing.T) {
	tests := []struct {
		f     games.Feature
		value string
		want  float64
		line  string
	}{
		{games.Feature{Name: "pawn", Default: 100, Min: 50, Max: 200, Step: 1}, "120", 120, "option name pawn type spin default 100 min 50 max 200"},
		{games.Feature{Name: "pawn-advance", Default: 3, Min: 0, Max: 20, Step: 0.5}, "7", 3.5, "option name pawn-advance type spin default 6 min 0 max 40"},
		{games.Feature{Name: "mobility", Default: 0.02, Min: -0.5, Max: 0.5, Step: 0.01}, "-7", -0.07, "option name mobility type spin default 2 min -50 max 50"},
		{games.Feature{Name: "free", Default: 1.5, Min: -1, Max: 2}, "33", 0.33, "option name free type spin default 150 min -100 max 200"},
		{games.Feature{Name: "frontier", Default: -1.5, Min: -10, Max: 5, Step: 0.25}, "-3", -0.75, "option name frontier type spin default -6 min -40 max 20"},
	}
	for _, tt := range tests {
		if got := WeightOption(tt.f, tt.f.Default).String(); got != tt.line {
			t.Errorf("%s: %q, want %q", tt.f.Name, got, tt.line)
		}
		w, err := Weight(tt.f, tt.value)
		if err != nil || w != tt.want {
			t.Errorf("%s value %s: %v %v, want %v", tt.f.Name, tt.value, w, err, tt.want)
		}
		if weights.SpinValue(tt.f, w) != int64(mustAtoi(t, tt.value)) {
			t.Errorf("%s: SpinValue(%v) = %d", tt.f.Name, w, weights.SpinValue(tt.f, w))
		}
	}
	f := tests[0].f
	for _, bad := range []string{"49", "201", "1.5", "x", ""} {
		if _, err := Weight(f, bad); err == nil || !strings.Contains(err.Error(), "from 50 to 200") {
			t.Errorf("value %q: error %v", bad, err)
		}
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	neg := strings.HasPrefix(s, "-")
	for _, c := range strings.TrimPrefix(s, "-") {
		n = n*10 + int(c-'0')
	}
	if neg {
		return -n
	}
	return n
}
