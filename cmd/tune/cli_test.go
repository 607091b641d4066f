package main

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament/stats"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tune runs one command line in process and returns its exit status and
// outputs.
func tune(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := execute(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestPerftJSON(t *testing.T) {
	code, out, errOut := tune(t, "", "perft", "tictactoe", "6", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Game    string  `json:"game"`
		Depth   int     `json:"depth"`
		Nodes   uint64  `json:"nodes"`
		Seconds float64 `json:"seconds"`
		NPS     float64 `json:"nps"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	if r.Game != "tictactoe" || r.Depth != 6 || r.Nodes != 54720 || r.NPS <= 0 {
		t.Fatalf("got %+v", r)
	}
}

func TestSolveAndSearch(t *testing.T) {
	code, out, _ := tune(t, "", "solve", "tictactoe", "--json")
	if code != 0 || !strings.Contains(out, `"value": "draw"`) {
		t.Fatalf("solve tictactoe: exit %d, %s", code, out)
	}
	code, out, _ = tune(t, "", "solve", "kono")
	if code != 0 || !strings.Contains(out, "draw") {
		t.Fatalf("solve kono: exit %d, %s", code, out)
	}
	code, out, _ = tune(t, "", "search", "nim", "--depth", "12", "--json")
	var r struct {
		Move  string `json:"move"`
		Stats struct {
			Nodes int64 `json:"nodes"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 {
		t.Fatalf("search nim: exit %d, %v, %s", code, err, out)
	}
	if r.Move != "3" || r.Stats.Nodes == 0 {
		t.Fatalf("search nim from 20: %+v, want to take 3", r)
	}
}

func TestGamesList(t *testing.T) {
	code, out, _ := tune(t, "", "games", "--json")
	if code != 0 {
		t.Fatal(code)
	}
	var list []struct {
		Name       string `json:"name"`
		Evaluators []struct {
			Features []struct {
				Name string  `json:"name"`
				Min  float64 `json:"min"`
				Max  float64 `json:"max"`
			} `json:"features"`
		} `json:"evaluators"`
		Search []struct {
			Name    string  `json:"name"`
			Default float64 `json:"default"`
		} `json:"search"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, g := range list {
		names[g.Name] = true
		search := map[string]float64{}
		for _, p := range g.Search {
			search[p.Name] = p.Default
		}
		if g.Name == "chess" && (search["lmr-base"] != 87 || search["null-reduction"] != 3 || search["time-horizon"] != 16) {
			t.Errorf("chess's search parameters are not all listed: %v", search)
		}
		if len(g.Evaluators) == 0 || len(g.Evaluators[0].Features) == 0 {
			t.Errorf("%s lists no evaluator features", g.Name)
		}
	}
	for _, want := range []string{"tictactoe", "nim", "kono"} {
		if !names[want] {
			t.Errorf("%s missing from tune games", want)
		}
	}
}

// TestBadInput: every bad command line gets a message naming the problem
// and what is accepted, and a non-zero status, never a panic.
func TestBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want string
		code int
	}{
		{[]string{"perft", "go", "3"}, `unknown game "go"`, exitUsage},
		{[]string{"perft", "tictactoe", "99"}, "whole number from 0", exitUsage},
		{[]string{"perft", "tictactoe", "-1"}, `depth "-1" must be a whole number from 0 to 30`, exitUsage},
		{[]string{"perft", "tictactoe", "2", "-x"}, "unknown shorthand flag: 'x'", exitUsage},
		{[]string{"search", "tictactoe", "--hash", "0"}, "--hash 0: want 1 to 65536 MiB", exitUsage},
		{[]string{"search", "tictactoe", "--hash", "65537"}, "--hash 65537: want 1 to 65536 MiB", exitUsage},
		{[]string{"search", "tictactoe", "--depth", "1000"}, "--depth 1000: want 1 to 64 plies", exitUsage},
		{[]string{"play", "tictactoe", "--depth", "1000"}, "--depth 1000: want 1 to 64 plies", exitUsage},
		{[]string{"search", "tictactoe", "--depth", "-1"}, "--depth -1: want 1 to 64 plies", exitUsage},
		{[]string{"search", "tictactoe", "--nodes", "-5"}, "--nodes -5: want 1 to", exitUsage},
		{[]string{"play", "tictactoe", "--nodes", "-5"}, "--nodes -5: want 1 to", exitUsage},
		{[]string{"perft", "tictactoe"}, "accepts 2 arg", exitUsage},
		{[]string{"perft", "tictactoe", "3", "--position", "xxxx"}, "has 4 cells", exitUsage},
		{[]string{"search", "tictactoe", "--evaluator", "magic"}, `unknown evaluator "magic"`, exitUsage},
		{[]string{"search", "tictactoe", "--depth", "x"}, "invalid argument", exitUsage},
		{[]string{"search", "tictactoe", "--weights", "/nonexistent/w.json"}, "no such file", exitUsage},
		{[]string{"search", "tictactoe", "--position", "xxxoo----"}, "game is over", exitError},
		{[]string{"play", "tictactoe", "--side", "middle"}, "want first or second", exitUsage},
		{[]string{"bogus"}, "unknown command", exitUsage},
	}
	for _, c := range cases {
		code, _, errOut := tune(t, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("tune %s: exit %d, %q; want exit %d and %q", strings.Join(c.args, " "), code, errOut, c.code, c.want)
		}
	}
}

func TestWeightsFlag(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(`{"game": "tictactoe", "evaluator": "lines", "weights": {"open-mine": 2, "open-theirs": -1, "threats-mine": 3, "threats-theirs": -3}}`), 0o644)
	if code, out, errOut := tune(t, "", "search", "tictactoe", "--weights", good, "--depth", "3"); code != 0 {
		t.Fatalf("good weights: exit %d %s %s", code, out, errOut)
	}
	cases := map[string]string{
		`{"game": "chess", "evaluator": "lines", "weights": {}}`:                                                                                       `for game "chess"`,
		`{"game": "tictactoe", "evaluator": "lines", "weights": {"open-mine": 2}}`:                                                                     "features missing",
		`{"game": "tictactoe", "evaluator": "lines", "weights": {"open-mine": 2, "open-theirs": -1, "threats-mine": 3, "threats-theirs": -3, "x": 1}}`: "unknown features",
		`{"game": "tictactoe", "evaluator": "lines", "weights": {"open-mine": 9, "open-theirs": -1, "threats-mine": 3, "threats-theirs": -3}}`:         "outside its range",
		`not json`: "not a weights file",
	}
	for content, want := range cases {
		f := filepath.Join(dir, "bad.json")
		os.WriteFile(f, []byte(content), 0o644)
		code, _, errOut := tune(t, "", "search", "tictactoe", "--weights", f)
		if code != exitUsage || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d %q, want %q", content, code, errOut, want)
		}
	}
}

// TestPlay plays a scripted game of tic-tac-toe against the engine: a
// malformed move, an illegal move, help, moves, undo, save and load.
func TestPlay(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "game.txt")
	script := strings.Join([]string{
		"help", "z9", "b2", "b2", "moves", "undo", "a1", "save " + saved, "save " + saved, "load " + saved, "position", "quit",
	}, "\n")
	code, out, errOut := tune(t, script, "play", "tictactoe", "--depth", "9")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"commands:",                 // help
		`"z9" is not a cell`,        // malformed
		"engine plays",              // the engine answered
		"is taken",                  // b2 again
		"legal moves:",              // moves
		"saved to " + saved,         // save
		"exists; choose a new name", // no overwrite
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(saved)
	if err != nil || !strings.HasPrefix(string(data), "game tictactoe\nstart ---------\na1\n") {
		t.Fatalf("saved game: %q %v", data, err)
	}
}

// TestPlayOthelloAndCheckers: the play session of the larger games, with
// their own errors: a move that flips nothing, a non-capture when a capture
// is due; the board drawn with coordinates.
func TestPlayOthelloAndCheckers(t *testing.T) {
	code, out, errOut := tune(t, "a1\nd3\nmoves\nquit\n", "play", "othello", "--depth", "2")
	if code != 0 {
		t.Fatalf("othello: exit %d %s", code, errOut)
	}
	for _, want := range []string{"a b c d e f g h", "flips nothing", "engine plays", "legal moves:", "black (X) to move"} {
		if !strings.Contains(out, want) {
			t.Errorf("othello session lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = tune(t, "9-13\nquit\n", "play", "checkers", "--depth", "2", "--position", "B:W14,23:B9")
	if code != 0 || !strings.Contains(out, "capture is mandatory: 9x18x27") {
		t.Errorf("checkers session:\n%s", out)
	}
	code, out, _ = tune(t, "e4\nfen\nquit\n", "play", "chess", "--depth", "1")
	if code != 0 || !strings.Contains(out, "engine plays") || !strings.Contains(out, " b KQkq ") && !strings.Contains(out, " w KQkq ") {
		t.Errorf("chess session:\n%s", out)
	}
}

// TestHashBeyondMemory: a table the machine cannot hold is refused before
// it is allocated (it used to end the process out of memory).
func TestHashBeyondMemory(t *testing.T) {
	total := engine.TotalMemory()
	if total == 0 || total>>20 >= 4*engine.MaxTableMiB {
		t.Skip("this machine's memory is unknown, or holds the largest table")
	}
	code, _, errOut := tune(t, "", "search", "chess", "--hash", "65536", "--depth", "2")
	if code != exitUsage || !strings.Contains(errOut, "quarter of this machine's") {
		t.Fatalf("exit %d, %q", code, errOut)
	}
}

// TestSearchJSONForcedEnd: a forced win or loss is mate_in (moves, negative
// when lost) and end_in_plies beside a null score, never a sentinel number;
// chess moves come in SAN and UCI.
func TestSearchJSONForcedEnd(t *testing.T) {
	cases := []struct {
		position      string
		mateIn, plies int
		move, uci     string
	}{
		{"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, 1, "Ra8#", "a1a8"},
		{"k7/8/1K6/8/8/8/8/7R b - - 0 1", -1, 2, "Kb8", "a8b8"},
	}
	for _, c := range cases {
		code, out, errOut := tune(t, "", "search", "chess", "--position", c.position, "--depth", "4", "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var r map[string]any
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if r["score"] != nil || r["mate_in"] != float64(c.mateIn) || r["end_in_plies"] != float64(c.plies) {
			t.Errorf("%s: score %v, mate_in %v, end_in_plies %v; want null, %d, %d", c.position, r["score"], r["mate_in"], r["end_in_plies"], c.mateIn, c.plies)
		}
		if r["move"] != c.move || r["move_uci"] != c.uci {
			t.Errorf("%s: move %v (uci %v), want %s (%s)", c.position, r["move"], r["move_uci"], c.move, c.uci)
		}
		if pv, ok := r["pv_uci"].([]any); !ok || len(pv) == 0 || pv[0] != c.uci {
			t.Errorf("%s: pv_uci %v", c.position, r["pv_uci"])
		}
	}
	code, out, _ := tune(t, "", "search", "othello", "--depth", "2", "--json")
	if code != 0 || strings.Contains(out, "uci") || !strings.Contains(out, `"score": `) {
		t.Errorf("othello search JSON: exit %d, %s", code, out)
	}
}

// TestStdoutFull: results that cannot be written are an error, not exit 0.
func TestStdoutFull(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here")
	}
	defer full.Close()
	for _, args := range [][]string{
		{"games"}, {"perft", "tictactoe", "3"}, {"solve", "tictactoe"}, {"runs", t.TempDir()},
		{"search", "nim", "--json"},
	} {
		var errOut bytes.Buffer
		code := execute(context.Background(), args, strings.NewReader(""), full, &errOut)
		if code != exitError || !strings.Contains(errOut.String(), "no space left") {
			t.Errorf("tune %s > /dev/full: exit %d, %q; want exit 1 and the write error", strings.Join(args, " "), code, errOut.String())
		}
	}
}

// TestJSONCleanSweep: a run whose yardstick was a clean sweep (Elo +Inf)
// lists and shows as JSON, with null for the infinite values.
func TestJSONCleanSweep(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "sweep")
	cfg := population.Defaults()
	cfg.Game, cfg.Evaluator, cfg.Population, cfg.Generations, cfg.Games = "tictactoe", "lines", 2, 1, 1
	r, err := results.Create(dir, cfg.Marshal(), cfg.Game, string(cfg.Algo), cfg.Seed, "test")
	if err != nil {
		t.Fatal(err)
	}
	game, _ := findGame("tictactoe")
	ev, _ := games.FindEvaluator(game, "lines")
	n := len(ev.Features)
	fill := func(x float64) []float64 { return slices.Repeat([]float64{x}, n) }
	g := population.Generation{
		Genomes: []population.Genome{{ID: 0, Weights: fill(1)}, {ID: 1, Weights: fill(2)}},
		Mean:    fill(1.5), Std: fill(0.5),
		Yardstick: &population.Yardstick{Genome: 1, WDL: stats.WDL{Wins: 10}, Score: 1, Elo: math.Inf(1), EloLow: 290, EloHigh: math.Inf(1)},
	}
	if err := r.RecordGeneration(g); err != nil {
		t.Fatal(err)
	}
	r.Close()
	for _, args := range [][]string{{"runs", root, "--json"}, {"show", dir, "--json"}} {
		code, out, errOut := tune(t, "", args...)
		if code != 0 {
			t.Fatalf("tune %s: exit %d, %s", strings.Join(args, " "), code, errOut)
		}
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("tune %s: %v in %s", strings.Join(args, " "), err, out)
		}
		if !strings.Contains(out, `_high": null`) || !strings.Contains(out, `_low": 290`) || strings.Contains(out, "10000") {
			t.Errorf("tune %s: want the infinite bound as null and the finite one as 290:\n%s", strings.Join(args, " "), out)
		}
	}
}

// TestShowDamagedWeights: a store whose genomes do not fit the evaluator
// is reported as damaged, not a crash.
func TestShowDamagedWeights(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "damaged")
	cfg := population.Defaults()
	cfg.Game, cfg.Evaluator, cfg.Population, cfg.Generations, cfg.Games = "tictactoe", "lines", 2, 1, 1
	r, err := results.Create(dir, cfg.Marshal(), cfg.Game, string(cfg.Algo), cfg.Seed, "test")
	if err != nil {
		t.Fatal(err)
	}
	g := population.Generation{Genomes: []population.Genome{{ID: 0, Weights: []float64{1}}}, Mean: []float64{1}, Std: []float64{0}}
	if err := r.RecordGeneration(g); err != nil {
		t.Fatal(err)
	}
	r.Close()
	for _, args := range [][]string{{"show", dir}, {"export", dir}, {"report", dir}} {
		code, _, errOut := tune(t, "", args...)
		if code == 0 || !strings.Contains(errOut, "damaged") {
			t.Errorf("tune %s: exit %d, %q; want an error saying damaged", strings.Join(args, " "), code, errOut)
		}
	}
}

// TestRecordsSaveLoadOpenings: play saves in the game's record format (PGN,
// PDN, GGF), load reads it back, and a record file serves as openings.
func TestRecordsSaveLoadOpenings(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ game, move, mark string }{
		{"chess", "e4", `[White "you"]`},
		{"checkers", "11-15", `[GameType "21"]`},
		{"othello", "d3", "(;GM[Othello]PB[you]PW[gametune]"},
	} {
		file := filepath.Join(dir, c.game+".rec")
		code, out, errOut := tune(t, c.move+"\nsave "+file+"\nposition\nquit\n", "play", c.game, "--depth", "1")
		if code != 0 {
			t.Fatalf("%s: exit %d %s", c.game, code, errOut)
		}
		data, _ := os.ReadFile(file)
		if !strings.Contains(string(data), c.mark) {
			t.Fatalf("%s: saved %q, want %s", c.game, data, c.mark)
		}
		g, _ := findGame(c.game)
		recs, err := g.(games.RecordReader).ReadGames(data)
		if err != nil || len(recs) != 1 {
			t.Fatalf("%s: %d games read back (%v)", c.game, len(recs), err)
		}
		p, played, err := recs[0].Replay(g)
		if err != nil || len(played) != 2 || !strings.Contains(out, p.String()) {
			t.Fatalf("%s: the record replays %d moves to %v (%v); the session was at another position:\n%s", c.game, len(played), p, err, out)
		}
		code, out, _ = tune(t, "load "+file+"\nposition\nquit\n", "play", c.game, "--depth", "1")
		if code != 0 || !strings.Contains(out, p.String()) {
			t.Fatalf("%s: load did not restore %s:\n%s", c.game, p, out)
		}
		if code, _, errOut := tune(t, "", "match", "--game", c.game, "--openings", file, "--pairs", "1", "--depth", "1", "--quiet"); code != 0 {
			t.Fatalf("%s: the record as openings: exit %d %s", c.game, code, errOut)
		}
	}
	over := filepath.Join(dir, "over.pgn")
	os.WriteFile(over, []byte("[Event \"mate\"]\n1. f3 e5 2. g4 Qh4# 0-1\n"), 0o644)
	code, _, errOut := tune(t, "", "match", "--game", "chess", "--openings", over, "--pairs", "1")
	if code != exitUsage || !strings.Contains(errOut, "game 1: it ends the game") {
		t.Fatalf("a finished game as an opening: exit %d %q", code, errOut)
	}
}

// TestSolveOthelloMargin (issue 56): near the end, 'tune solve othello'
// gives the exact final disc difference and a best move, by the game's own
// solver: FFO #40 is +38 by a2 (the suite's published answer); a node
// limit stops it with an unknown value.
func TestSolveOthelloMargin(t *testing.T) {
	ffo40 := "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"
	code, out, errOut := tune(t, "", "solve", "othello", "--position", ffo40, "--json", "--quiet")
	var r struct {
		Value string `json:"value"`
		Move  string `json:"move"`
		Score *int   `json:"score"`
		Depth int    `json:"depth"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 {
		t.Fatalf("exit %d, %v, %s %s", code, err, out, errOut)
	}
	if r.Value != "win" || r.Move != "a2" || r.Score == nil || *r.Score != 38 || r.Depth != 20 {
		t.Fatalf("FFO #40: %s, want a win by 38 with a2 at 20 empties", out)
	}
	code, out, _ = tune(t, "", "solve", "othello", "--position", ffo40, "--nodes", "1000", "--quiet")
	if code != 0 || !strings.HasPrefix(out, "unknown: stopped (node limit)") {
		t.Fatalf("--nodes 1000: exit %d, %q", code, out)
	}
}
