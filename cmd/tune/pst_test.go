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
// least +100 Elo with the interval above 0. The tables shipped now measure
// +206.2 [+170.9, +245.9] in 44 minutes on 2 cores (larger trees), so it
// runs with the experiments, with a -timeout of two hours (the first 60 of
// its pairs alone: +206.7 [+144.3, +284.0]). The tables shipped before measured
// +177.2 [+144.4, +213.3] since the engine's quiescence tries
// quiet checks (both sides' searches), +156.6 [+123.7, +192.4] before
// (71.1%, in 13.5 minutes; pairs scoring 0, 0.5, 1, 1.5, 2: 6, 15, 63,
// 36, 80); without the threat tables +99.0 [+66.9, +132.9], the square
// tables alone +86.0.
func TestPSTBeatsTextbook(t *testing.T) {
	experiment(t)
	pstOverTextbook(t, 200, 5, "2800", 100)
}

// TestPSTBeatsTextbookAtDepth3: below the depth the shipped tables were
// learned at, pst beats textbook with the interval above 0 (measured
// +167.3 [+133.8, +204.0] over 200 pairs; without the threat tables
// +63.2; these 60 with the engine's quiet checks +172.0 [+113.7, +241.1],
// with its recapture extension too +198.7 [+135.9, +276.0], with the
// seventh-rank extension too +179.5 [+118.0, +253.5]; the refitted tables
// shipped now +168.4 [+107.8, +240.5]): 60 pairs, seed 2804, about 35
// seconds (47 with the tables shipped now), so that CI keeps its time.
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
// colour-swapped pairs: at least 30% (textbook scored 10%, the square
// tables alone 6.7%, with mobility and king-attack 16.7%, the shipped
// tables with threats too 16.7% again, though +157 over textbook at
// depth 5; under a minute). Over 60 pairs (seed 2900) the shipped tables
// scored 12.5% (-338 [-441, -267]) and textbook 5.4%. Since the engine's
// quiescence tries quiet checks: 24.6% over those 60 pairs (-195 [-268,
// -135]), 11.7% over these 15 (100 s); with the move extensions 20.0% over
// these 15 (150 s), 20.0-25.8% over the 60 in three runs: 15 pairs
// against Stockfish's randomised weak play are noise. At depth 6, 39.4%
// over the first 47 games of the 60 (depth 5: 26.6-29.8% on those). With
// quiet checks at the third and fifth quiescence plies too: 40.0%, 41.7%
// and 28.3% in three runs of these 15 (150-190 s), 28.3% over the 60
// (30.4% before their 500-centipawn margin), 24.2% over 60 of seed 2901,
// 32.5% and 28.3% over 60 of seeds 2902 and 2903; 29.6% over those 570 games.
// With draws by repetition in the tree, 22.9% and 32.9% over those of seeds
// 2902 and 2903. The refitted tables shipped now: 43.3% and 33.3% over
// these 15 in two runs (220 s, 150 s), 32.1% and 33.3% over 60 of seeds
// 2904 and 2905.
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

// TestPSTLearnFromScratch is the command that made the shipped pst
// tables (16,000 games at depth 4, 116 minutes on 2 cores); what it
// learns must beat default:textbook at depth 3, as the shipped file does
// (TestPSTBeatsTextbookAtDepth3). An experiment for its length;
// TestPSTLearnFromScratchReduced is the small version of the command that
// made the shipped pst tables: one round of 1,800 self-play games at depth
// 2 (188,565 positions, each labelled by its mover's search score alone,
// --lambda 1: few games' results are too noisy a label for 1,627 weights;
// its gate measured +85.0 [+62.5, +108.3] over 300 pairs) from empty
// tables, 2m5s on 2 cores; what it learns must beat default:textbook at
// depth 3, 100 pairs (measured +119.1 [+74.0, +168.5], 177 s in all, with
// the seventh-rank extension; +94.3 [+50.6, +141.2] before it). The
// engine's quiet checks made the round 1.85 times longer and its
// recapture extension longer again, so it went from 3,000 self-play games
// to 2,250, then 1,800, and its match from 200 pairs to 100, for CI's time;
// 2,250 games measured +139.0 [+93.8, +189.2] (100 pairs) with the
// extension, +115.2 [+72.6, +161.5] before it; 3,000 games +141.0 [+108.2,
// +176.4] over 200 pairs in 3m7s, +136.0 before the quiet checks in 1m45s,
// +86.9 [+54.8, +120.5] before the king-safety tables. The same round at
// depth 3 took 8m39s and measured +78.6 [+47.1, +111.5] before them
// (without the threat tables +44.5 [+12.6, +77.2], the square tables alone
// +41.9); one of 1,500 games at depth 4 measured -0.9 [-32.7, +30.9] with
// the square tables alone.
func TestPSTLearnFromScratchReduced(t *testing.T) {
	learnAndBeat(t, "chess", "pst", "default:textbook", 100, "--budget-games", "2400", "--depth", "2", "--rounds", "1",
		"--epochs", "5", "--lambda", "1", "--seed", "5")
}

// TestCheckersPatternsLearnFromScratch is the small version of the
// command that made the shipped checkers tables, from empty tables at
// depth 4; what it learns must beat default:full at depth 3 (measured +27.9
// [+7.4, +48.5]). It was 30,000 games in 4 rounds (2m57s on 2 cores), of
// which only the first round was kept: its 2,250 self-play games, a gate
// of at most 937 pairs that accepted at 565 (+48.9 [+34.5, +63.5]); the
// other three rounds' 2m40s changed nothing. It is now that first round
// alone, the same games, fit and gate (--gate-pairs 937 and a budget of
// 2,250 + 2*937 games), the same weights and figure in 15 seconds.
func TestCheckersPatternsLearnFromScratch(t *testing.T) {
	learnAndBeat(t, "checkers", "patterns", "default:full", 200, "--budget-games", "4124", "--rounds", "1", "--gate-pairs", "937",
		"--depth", "4", "--epochs", "5", "--seed", "3")
}
