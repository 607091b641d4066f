package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/chess"
	"github.com/gametune/gametune/games/othello"
	"github.com/gametune/gametune/protocol/gtp"
	"github.com/gametune/gametune/tournament/stats"
)

// Debian's engines, installed by .ci/run; the tests that need one skip
// where it is absent.
const (
	rhinoPath     = "/usr/games/gtp-rhino"
	stockfishPath = "/usr/games/stockfish"
	polyglotPath  = "/usr/games/polyglot"
)

func needBinary(t *testing.T, path string) {
	t.Helper()
	if testing.Short() {
		t.Skip("whole games against an external engine: skipped with -short")
	}
	if _, err := exec.LookPath(path); err != nil {
		t.Skipf("%s is not installed (Debian package; .ci/run installs it): %v", path, err)
	}
}

// envInt reads a measurement knob, such as the number of pairs.
func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	if s := os.Getenv(name); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("%s=%q: want a positive number", name, s)
		}
		return n
	}
	return def
}

// randomOpening draws plies random legal moves from the start, the same for
// both games of a pair.
func randomOpening(g games.Game, plies int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 0x09e4))
	p := g.Start()
	var out []string
	for range plies {
		moves, outcome := p.Moves(nil)
		if outcome != games.Ongoing {
			break
		}
		m := moves[rng.IntN(len(moves))]
		out = append(out, p.FormatMove(m))
		p.Play(m)
	}
	return out
}

// refereeOthello plays one Othello game between two GTP engines from an
// opening: it asks the side to move for a move (genmove), checks it on its
// own board and passes it to the other (play); forced passes are left to
// the engines. An illegal move fails the test. It returns the outcome.
func refereeOthello(t *testing.T, black, white *engineProcess, opening []string) games.Outcome {
	t.Helper()
	engines := [2]*engineProcess{black, white}
	for _, e := range engines {
		if r := e.gtp("clear_board", 10*time.Second); r.Error {
			t.Fatalf("clear_board: %+v", r)
		}
	}
	p := othello.Start()
	for _, s := range opening {
		m, _ := p.ParseMove(s)
		for _, e := range engines {
			if r := e.gtp("play "+gtp.ColorName(p.Turn() == games.First)+" "+s, 10*time.Second); r.Error {
				t.Fatalf("play %s: %+v", s, r)
			}
		}
		p.Play(m)
	}
	var buf []games.Move
	for {
		moves, outcome := p.Moves(buf[:0])
		buf = moves
		if outcome != games.Ongoing {
			return outcome
		}
		if len(moves) == 1 && p.FormatMove(moves[0]) == "pass" {
			// A forced pass is not asked for nor told: gtp-rhino refuses
			// "play COLOUR pass" and passes by itself, as tune engine does.
			p.Play(moves[0])
			continue
		}
		side := p.Turn()
		colour := gtp.ColorName(side == games.First)
		r := engines[side].gtp("genmove "+colour, 60*time.Second)
		if r.Error {
			t.Fatalf("genmove %s: %+v", colour, r)
		}
		m, err := p.ParseMove(r.Text)
		if err != nil {
			t.Fatalf("ply %d: %s played the illegal move %q: %v", p.Ply()+1, colour, r.Text, err)
		}
		if r := engines[1-side].gtp("play "+colour+" "+p.FormatMove(m), 10*time.Second); r.Error {
			t.Fatalf("play %s %s: %+v", colour, p.FormatMove(m), r)
		}
		p.Play(m)
	}
}

// TestEngineAgainstRhino: `tune engine othello --protocol gtp` (full
// defaults, depth 6) against GRhino's gtp-rhino, colour-swapped pairs from
// random 4-ply openings; no illegal move, W-D-L logged. Two pairs in the
// README's command, ten in the long checks (some 25 s);
// GAMETUNE_RHINO_LEVELS (default 3) and GAMETUNE_RHINO_PAIRS change the
// measurement.
func TestEngineAgainstRhino(t *testing.T) {
	needBinary(t, rhinoPath)
	pairs := 2
	if longChecks() {
		pairs = 10
	}
	pairs = envInt(t, "GAMETUNE_RHINO_PAIRS", pairs)
	levels := strings.Split(os.Getenv("GAMETUNE_RHINO_LEVELS"), ",")
	if levels[0] == "" {
		levels = []string{"3"}
	}
	for _, level := range levels {
		t.Run("level-"+level, func(t *testing.T) {
			ours := startTuneEngine(t, true, "othello", "--protocol", "gtp", "--evaluator", "full", "--depth", "6")
			rhino := startEngine(t, true, rhinoPath, "-l", level)
			var wdl stats.WDL
			var winsAs [2]int // as black, as white
			start := time.Now()
			for pair := range pairs {
				opening := randomOpening(othello.Game(), 4, uint64(pair))
				for game := range 2 {
					black, white := ours, rhino
					if game == 1 {
						black, white = rhino, ours
					}
					o := refereeOthello(t, black, white, opening)
					switch {
					case o == games.Draw:
						wdl.Draws++
					case (o == games.FirstWins) == (game == 0):
						wdl.Wins++
						winsAs[game]++
					default:
						wdl.Losses++
					}
				}
			}
			t.Logf("full depth 6 vs gtp-rhino -l %s: %d pairs, W-D-L %d-%d-%d (wins as black %d, as white %d; %.1f s)",
				level, pairs, wdl.Wins, wdl.Draws, wdl.Losses, winsAs[0], winsAs[1], time.Since(start).Seconds())
		})
	}
}

// uciEngine is a UCI engine process set up for a game.
type uciEngine struct {
	p         *engineProcess
	goCommand string
}

// refereeChess plays one chess game between two UCI engines from an
// opening (UCI moves); the ply cap ends it drawn.
func refereeChess(t *testing.T, white, black uciEngine, opening []string, maxPlies int) games.Outcome {
	t.Helper()
	engines := [2]uciEngine{white, black}
	p := chess.Start()
	moves := append([]string(nil), opening...)
	for _, s := range opening {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
	}
	for _, e := range engines {
		e.p.send("ucinewgame", "isready")
		e.p.expect("readyok", 10*time.Second)
	}
	var buf []games.Move
	for {
		ms, outcome := p.Moves(buf[:0])
		buf = ms
		if outcome != games.Ongoing {
			return outcome
		}
		if len(moves) >= maxPlies {
			return games.Draw
		}
		e := engines[p.Turn()]
		e.p.send("position startpos moves "+strings.Join(moves, " "), e.goCommand)
		s := bestMove(t, e.p, 120*time.Second)
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatalf("ply %d: %s is illegal: %v", len(moves)+1, s, err)
		}
		p.Play(m)
		moves = append(moves, s)
	}
}

// TestEngineAgainstStockfish: `tune engine chess` (textbook defaults, depth
// 3; depth 5 in the long checks, some 25 s) against Debian's Stockfish
// limited to UCI_Elo 1800 (its own search at depth 8), colour-swapped pairs
// from random 4-ply openings, every move legal. One pair by default;
// GAMETUNE_STOCKFISH_PAIRS measures more.
func TestEngineAgainstStockfish(t *testing.T) {
	needBinary(t, stockfishPath)
	pairs := envInt(t, "GAMETUNE_STOCKFISH_PAIRS", 1)
	depth := 3
	if longChecks() {
		depth = 5
	}
	ours := uciEngine{startTuneEngine(t, false, "chess", "--evaluator", "textbook", "--search", "exact"), "go depth " + itoa(depth)}
	sf := uciEngine{startEngine(t, false, stockfishPath), "go depth 8"}
	sf.p.send("uci", "setoption name UCI_LimitStrength value true", "setoption name UCI_Elo value 1800", "setoption name Threads value 1")
	sf.p.expect("uciok", 10*time.Second)
	var wdl stats.WDL
	start := time.Now()
	for pair := range pairs {
		opening := randomOpening(chess.Game(), 4, uint64(pair))
		for i, s := range opening {
			p := chess.Start()
			for _, prev := range opening[:i] {
				m, _ := p.ParseMove(prev)
				p.Play(m)
			}
			m, _ := p.ParseMove(s)
			opening[i] = p.UCI(m)
		}
		for game := range 2 {
			white, black := ours, sf
			if game == 1 {
				white, black = sf, ours
			}
			o := refereeChess(t, white, black, opening, 300)
			switch {
			case o == games.Draw:
				wdl.Draws++
			case (o == games.FirstWins) == (game == 0):
				wdl.Wins++
			default:
				wdl.Losses++
			}
		}
	}
	t.Logf("textbook depth %d vs Stockfish UCI_Elo 1800 (depth 8): %d pairs, W-D-L %d-%d-%d (%.1f s)", depth, pairs, wdl.Wins, wdl.Draws, wdl.Losses, time.Since(start).Seconds())
}

// TestEngineUnderPolyglot: Debian's polyglot, a real UCI client (it turns
// a UCI engine into an xboard one), drives `tune engine chess` through a
// whole game; the test is the xboard GUI and plays the other side.
func TestEngineUnderPolyglot(t *testing.T) {
	needBinary(t, polyglotPath)
	bin := buildTune(t)
	dir := t.TempDir()
	ini := fmt.Sprintf("[PolyGlot]\nEngineDir = %s\nEngineCommand = %s engine chess\nBook = false\nLog = false\n[Engine]\nHash = 8\n", dir, bin)
	iniPath := filepath.Join(dir, "tune.ini")
	if err := os.WriteFile(iniPath, []byte(ini), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startEngine(t, false, polyglotPath, iniPath)
	p.send("xboard", "protover 2")
	p.expect("feature done=1", 10*time.Second)
	p.send("new", "sd 2", "ping 1")
	p.expect("pong 1", 10*time.Second)
	pos := chess.Start()
	rng := rand.New(rand.NewPCG(1, 2))
	var buf []games.Move
	outcome := games.Ongoing
	for ply := 0; ply < 400; ply++ {
		var ms []games.Move
		if ms, outcome = pos.Moves(buf[:0]); outcome != games.Ongoing {
			break
		}
		buf = ms
		if ply%2 == 0 { // the test plays white: a random legal move
			m := ms[rng.IntN(len(ms))]
			p.send("usermove " + pos.UCI(m))
			pos.Play(m)
			continue
		}
		line, _ := p.expect("move ", 30*time.Second)
		s := strings.TrimPrefix(line, "move ")
		m, err := pos.ParseMove(s)
		if err != nil {
			t.Fatalf("ply %d: polyglot passed on the illegal move %q: %v", ply+1, s, err)
		}
		pos.Play(m)
	}
	t.Logf("polyglot game over after %d plies: %s", pos.Ply(), outcome)
	if outcome == games.Ongoing {
		t.Fatalf("the game did not end in 400 plies")
	}
	p.send("quit")
}

// TestEngineSpecBadInput: a command that does not exist or cannot run, a
// protocol the game does not speak, an option the engine does not list and
// a malformed tc= are refused before any game, with exit 2.
func TestEngineSpecBadInput(t *testing.T) {
	bin := buildTune(t)
	notExec := filepath.Join(t.TempDir(), "engine.txt")
	os.WriteFile(notExec, []byte("not a program\n"), 0o644)
	for _, c := range []struct {
		game, spec, want string
	}{
		{"chess", "cmd=/nonexistent/engine,proto=uci,depth=1", "/nonexistent/engine"},
		{"chess", "cmd=" + notExec + ",proto=uci,depth=1", "engine.txt"},
		{"chess", "cmd=" + bin + ",arg=engine,arg=chess,proto=gtp", "gtp"},
		{"chess", "cmd=" + bin + ",arg=engine,arg=chess,proto=uci,depth=1,option.NoSuchOption=3", "NoSuchOption"},
		{"chess", "cmd=" + bin + ",arg=engine,arg=chess,proto=uci,tc=40/x+y", "tc"},
	} {
		code, _, errOut := tune(t, "", "match", "--game", c.game, "--a", c.spec, "--b", "default", "--pairs", "1", "--depth", "1")
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, %q; want exit 2 naming %q", c.spec, code, errOut, c.want)
		}
	}
}
