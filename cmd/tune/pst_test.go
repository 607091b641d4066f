package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// Issue 28's must-shows: chess pst and checkers patterns, their shipped
// tables learned by tune learn, against the evaluators they replace and
// against Stockfish.

// TestPSTBeatsTextbook: issue 28's first must-show, the shipped pst
// evaluator against default:textbook at depth 5, 200 colour-swapped pairs
// on openings of a seed the pipeline never played (random:8, seed 2800): at
// least +100 Elo with the interval above 0. It takes 44 minutes on 2 cores,
// so it runs with the experiments, with a -timeout of two hours.
// Measurements: docs/experiments.md#chess-pst-against-textbook.
func TestPSTBeatsTextbook(t *testing.T) {
	experiment(t)
	pstOverTextbook(t, 200, 5, "2800", 100)
}

// TestPSTBeatsTextbookAtDepth3: below the depth the shipped tables were
// learned at, pst beats textbook with the interval above 0: 60 pairs, seed
// 2804, under a minute, so that CI keeps its time.
// Measurements: docs/experiments.md#chess-pst-against-textbook.
func TestPSTBeatsTextbookAtDepth3(t *testing.T) {
	long(t, "120 chess games at depth 3")
	pstOverTextbook(t, 60, 3, "2804", 0)
}

func pstOverTextbook(t *testing.T, pairs, depth int, seed string, want float64) {
	beats(t, "chess", "default:pst", "default:textbook", pairs, depth, seed, want, 0)
}

// beats plays a against b (random:8 openings of seed) and wants a's Elo per
// game at least want, its interval's lower bound above low.
func beats(t *testing.T, game, a, b string, pairs, depth int, seed string, want, low float64) {
	t.Helper()
	elo, lo, high := matchElo(t, buildTune(t), game, a, b, pairs, depth, seed)
	t.Logf("%s %s vs %s, depth %d, %d pairs: %+.1f [%+.1f, %+.1f]", game, a, b, depth, pairs, elo, lo, high)
	if elo < want || lo <= low {
		t.Errorf("%s %s is %+.1f [%+.1f, %+.1f] Elo over %s at depth %d; want at least %+.0f with the interval above %+.0f", game, a, elo, lo, high, b, depth, want, low)
	}
}

// TestExperimentPSTAgainstStockfish: pst at depth 5 against Debian's
// Stockfish limited to UCI_Elo 2100 (its own search to depth 8), 15
// colour-swapped pairs (seed 2801): at least 30%. Stockfish's weakened
// play is random, so 15 pairs are noise; a few minutes.
// Measurements: docs/experiments.md#chess-pst-against-stockfish-2100.
func TestExperimentPSTAgainstStockfish(t *testing.T) {
	experiment(t)
	needBinary(t, stockfishPath)
	sf := "cmd=" + stockfishPath + ",proto=uci,name=sf2100,option.UCI_LimitStrength=true,option.UCI_Elo=2100,option.Threads=1,option.Hash=16,depth=8"
	score := matchScore(t, buildTune(t), "chess", "default:pst", sf, 15, 5, "2801")
	t.Logf("default:pst at depth 5 against Stockfish UCI_Elo 2100 (depth 8), 15 pairs: %.1f%%", 100*score)
	if score < 0.30 {
		t.Errorf("against Stockfish UCI_Elo 2100: %.1f%%, want at least 30%%", 100*score)
	}
}

// TestCheckersPatternsBeatFull: the shipped checkers patterns evaluator
// against default:full at depth 6, 200 pairs (random:8, seed 2802): at
// least +100 Elo with the interval above 0.
func TestCheckersPatternsBeatFull(t *testing.T) {
	long(t, "400 checkers games at depth 6")
	beats(t, "checkers", "default:patterns", "default:full", 200, 6, "2802", 100, 0)
}

// learnAndBeat runs a reduced tune learn from empty tables and matches
// what it learned against old at depth 3, pairs on another seed's
// openings: the interval must lie above 0.
func learnAndBeat(t *testing.T, game, evaluator, old string, pairs int, args ...string) {
	t.Helper()
	long(t, "a learning run and a match")
	bin := buildTune(t)
	out := filepath.Join(t.TempDir(), "learned.gtw")
	t0 := time.Now()
	tuneFor(t, bin, append([]string{"learn", "--game", game, "--evaluator", evaluator, "--start", "empty", "-o", out}, args...)...)
	wall := time.Since(t0).Round(time.Second)
	elo, low, high := matchElo(t, bin, game, out, old, pairs, 3, "2803")
	t.Logf("%s %s learned from scratch (%v) in %v: %+.1f [%+.1f, %+.1f] over %s at depth 3", game, evaluator, args, wall, elo, low, high, old)
	if low <= 0 {
		t.Errorf("%s %s learned from scratch: %+.1f [%+.1f, %+.1f] over %s, want the interval above 0", game, evaluator, elo, low, high, old)
	}
}

// TestEngineTables: `tune engine chess --evaluator pst` and `tune engine
// checkers --evaluator patterns` speak UCI (checkers in its own notation)
// with the shipped tables, their scales offered as options, and through a
// weights file that 'tune export' wrote: whole games at depth 2, every
// move legal.
func TestEngineTables(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		game, evaluator, scale string
	}{
		{"chess", "pst", "knight-table"},
		{"checkers", "patterns", "kings-scale"},
	} {
		file := filepath.Join(dir, c.game+".gtw")
		if code, _, errOut := tune(t, "", "export", "--weights", "default:"+c.evaluator, "--game", c.game, "-o", file); code != 0 {
			t.Fatalf("export: exit %d: %s", code, errOut)
		}
		for _, args := range [][]string{{"--evaluator", c.evaluator}, {"--weights", file}} {
			p := startTuneEngine(t, false, append([]string{c.game}, args...)...)
			p.send("uci")
			_, lines := p.expect("uciok", 10*time.Second)
			if !strings.Contains(strings.Join(lines, "\n"), "option name "+c.scale+" type spin") {
				t.Errorf("%s %v: no option %s among\n%s", c.game, args, c.scale, strings.Join(lines, "\n"))
			}
			plies := playUCISelf(t, p, c.game, 160)
			t.Logf("%s %v: %d plies", c.game, args, plies)
			p.closeAndWait(5 * time.Second)
		}
	}
}

// playUCISelf has one UCI engine play both sides of a game of game at
// depth 2 from the start, in the game's notation, checking each move, up to
// maxPlies; it returns the plies played.
func playUCISelf(t *testing.T, p *engineProcess, game string, maxPlies int) int {
	t.Helper()
	g, err := all.Find(game)
	if err != nil {
		t.Fatal(err)
	}
	pos := g.Start()
	var moves []string
	var buf []games.Move
	p.send("ucinewgame", "isready")
	p.expect("readyok", 10*time.Second)
	for len(moves) < maxPlies {
		var out games.Outcome
		if buf, out = pos.Moves(buf[:0]); out != games.Ongoing {
			break
		}
		p.send(strings.TrimSpace("position startpos moves "+strings.Join(moves, " ")), "go depth 2")
		s := bestMove(t, p, 30*time.Second)
		m, err := pos.ParseMove(s)
		if err != nil {
			t.Fatalf("%s ply %d: bestmove %s: %v", game, len(moves)+1, s, err)
		}
		moves = append(moves, pos.FormatMove(m))
		pos.Play(m)
	}
	return len(moves)
}

// TestPSTLearnFromScratchReduced is the small version of the command that
// made the shipped pst tables: one round of 1,800 self-play games at depth
// 2, each position labelled by its mover's search score alone (--lambda 1:
// few games' results are too noisy a label for 1,627 weights), from empty
// tables, about 3 minutes in all; what it learns must beat
// default:textbook at depth 3 over 100 pairs, the interval above 0.
// Measurements: docs/experiments.md#chess-pst-from-scratch-reduced.
func TestPSTLearnFromScratchReduced(t *testing.T) {
	learnAndBeat(t, "chess", "pst", "default:textbook", 100, "--budget-games", "2400", "--depth", "2", "--rounds", "1",
		"--epochs", "5", "--lambda", "1", "--seed", "5")
}

// TestCheckersPatternsLearnFromScratch is the small version of the
// command that made the shipped checkers tables, from empty tables at
// depth 4; what it learns must beat default:full at depth 3 over 200
// pairs, the interval above 0. It is the first round alone of a 30,000-game
// run, the one round its gates kept (--gate-pairs 937 and a budget of
// 2,250 + 2*937 games): the same weights in 15 seconds.
// Measurements: docs/experiments.md#checkers-patterns.
func TestCheckersPatternsLearnFromScratch(t *testing.T) {
	learnAndBeat(t, "checkers", "patterns", "default:full", 200, "--budget-games", "4124", "--rounds", "1", "--gate-pairs", "937",
		"--depth", "4", "--epochs", "5", "--seed", "3")
}
