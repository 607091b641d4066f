package chess

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/gametest"
)

// perftSuite is the chess programming wiki's six standard positions with
// their published counts; depths above shortDepth run outside -short.
var perftSuite = []struct {
	name, fen  string
	counts     []uint64
	shortDepth int
}{
	{"start", StartFEN, []uint64{20, 400, 8902, 197281, 4865609, 119060324}, 4},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", []uint64{48, 2039, 97862, 4085603, 193690690}, 3},
	{"position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", []uint64{14, 191, 2812, 43238, 674624, 11030083}, 5},
	{"position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", []uint64{6, 264, 9467, 422333, 15833292}, 4},
	{"position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", []uint64{44, 1486, 62379, 2103487, 89941194}, 3},
	{"position 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", []uint64{46, 2079, 89890, 3894594, 164075551}, 3},
}

func TestPerft(t *testing.T) {
	for _, c := range perftSuite {
		t.Run(c.name, func(t *testing.T) {
			p, err := Parse(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range c.counts {
				d := i + 1
				if d > c.shortDepth && testing.Short() {
					break
				}
				if got := p.Perft(d); got != want {
					t.Errorf("perft(%d) = %d, want %d", d, got, want)
				}
			}
			if p.String() != c.fen || p.Hash() != p.computeHash() {
				t.Fatal("perft did not restore the position")
			}
		})
	}
}

// TestPerftGeneric checks the make/unmake path through Moves against the
// bulk counter.
func TestPerftGeneric(t *testing.T) {
	for _, c := range perftSuite {
		p, _ := Parse(c.fen)
		if got := games.PerftGeneric(p, 3); got != c.counts[2] {
			t.Errorf("%s: generic perft(3) = %d, want %d", c.name, got, c.counts[2])
		}
	}
}

// randomPositions plays random games from the suite's positions.
func randomPositions(t *testing.T, n int, visit func(p *Position, moves []games.Move)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(8, 9))
	for g := 0; g < n; g++ {
		p, _ := Parse(perftSuite[g%len(perftSuite)].fen)
		for ply := 0; ply < 120; ply++ {
			moves, o := p.Moves(nil)
			if o != games.Ongoing {
				break
			}
			visit(p, moves)
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
}

// TestRoundTrips: every legal move of many random positions formats to SAN
// and UCI and parses back to itself; every position's FEN reads back; the
// incremental hash equals a fresh one; undo restores.
func TestRoundTrips(t *testing.T) {
	count := 0
	randomPositions(t, 60, func(p *Position, moves []games.Move) {
		fen := p.String()
		q, err := Parse(fen)
		if err != nil || q.String() != fen {
			t.Fatalf("FEN %q reads back as %q (%v)", fen, q, err)
		}
		if q.Hash() != p.Hash() {
			t.Fatalf("%s: hash %x, fresh %x", fen, p.Hash(), q.Hash())
		}
		for _, m := range moves {
			san := p.FormatMove(m)
			if got, err := p.ParseMove(san); err != nil || got != m {
				t.Fatalf("%s: SAN %s reads back as %v (%v)", fen, san, got, err)
			}
			if got, err := p.ParseMove(p.UCI(m)); err != nil || got != m {
				t.Fatalf("%s: UCI %s reads back as %v (%v)", fen, p.UCI(m), got, err)
			}
			p.Play(m)
			p.Undo()
			if p.String() != fen {
				t.Fatalf("undo of %s: %s, want %s", san, p, fen)
			}
			count++
		}
	})
	if count < 10000 {
		t.Fatalf("only %d moves checked", count)
	}
}

func TestSAN(t *testing.T) {
	p, _ := Parse("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	for in, want := range map[string]string{
		"O-O": "e1g1", "0-0-0": "e1c1", "Nxd7": "e5d7", "dxe6": "d5e6", "Qxf6": "f3f6", "Rb1": "a1b1", "Bxa6": "e2a6", "g4": "g2g4", "Nd1": "c3d1",
	} {
		m, err := p.ParseMove(in)
		if err != nil || p.UCI(m) != want {
			t.Errorf("%s: %v %v, want %s", in, p.UCI(m), err, want)
		}
	}
	for in, want := range map[string]string{
		"Qh8":   "not legal",
		"e9":    "not a square",
		"Kxe2":  "not legal",
		"e2e5":  "not legal",
		"a4a5":  "no piece on a4",
		"d7d6":  "not the side to move",
		"Zz":    "not a square",
		"e2e4k": "promotion piece",
		"Q":     "neither SAN",
	} {
		if _, err := p.ParseMove(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
	// Two knights reach d2: the file or rank must say which.
	n, _ := Parse("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1")
	if _, err := n.ParseMove("Nd2"); err == nil || !strings.Contains(err.Error(), "ambiguous") {
		t.Errorf("Nd2: %v", err)
	}
	for in, want := range map[string]string{"Nbd2": "b1d2", "Nfd2": "f3d2", "N3d2": "f3d2", "Nf3d2": "f3d2"} {
		if m, err := n.ParseMove(in); err != nil || n.UCI(m) != want {
			t.Errorf("%s: %v %v", in, n.UCI(m), err)
		}
	}
	if m, _ := n.ParseMove("b1d2"); n.FormatMove(m) != "Nbd2" {
		t.Errorf("disambiguated SAN: %s", n.FormatMove(m))
	}
	// Promotions, lenient forms, checks and mates.
	q, _ := Parse("6k1/P7/8/8/8/8/6K1/8 w - - 0 1")
	for _, in := range []string{"a8=Q", "a8Q", "a7a8q", "a8=Q+"} {
		if m, err := q.ParseMove(in); err != nil || q.UCI(m) != "a7a8q" {
			t.Errorf("%s: %v", in, err)
		}
	}
	if _, err := q.ParseMove("a8"); err == nil || !strings.Contains(err.Error(), "must promote") {
		t.Errorf("a8 without promotion: %v", err)
	}
	if m, _ := q.ParseMove("a8=Q"); q.FormatMove(m) != "a8=Q+" {
		t.Errorf("a8=Q check: %s", q.FormatMove(m))
	}
	r, _ := Parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	if m, _ := r.ParseMove("Ra8"); r.FormatMove(m) != "Ra8#" {
		t.Errorf("back-rank mate: %s", r.FormatMove(m))
	}
	// A check that makes the third occurrence is a draw, not a mate.
	d, _ := Parse("q4rk1/pp6/6Q1/8/8/8/8/4K3 b - - 1 1")
	for _, in := range []string{"Kh8", "Qh6+", "Kg8", "Qg6+", "Kh8", "Qh6+", "Kg8"} {
		m, _ := d.ParseMove(in)
		d.Play(m)
	}
	m, _ := d.ParseMove("Qg6")
	if san := d.FormatMove(m); san != "Qg6+" {
		t.Errorf("a check into the third occurrence: %s, want Qg6+", san)
	}
	d.Play(m)
	if _, o := d.Moves(nil); o != games.Draw {
		t.Errorf("the third occurrence: %v, want a draw", o)
	}
}

func TestFENErrors(t *testing.T) {
	for in, want := range map[string]string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq":          "has 3 fields",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1":             "has 7 ranks",
		"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1":    "count 1-8",
		"rnbqkbnr/pppppppp/8p/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1":   "more than 8 squares",
		"rnbqkbnr/pppppppp/36/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1":   "has 9 squares",
		"rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1":    "not a piece",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1":    "side to move",
		"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1":      "0 black kings",
		"8/8/8/8/8/8/8/Kk6 w - - 0 1":                                 "adjacent",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1":    "needs the king on e1 and a rook on h1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1":    "not one of KQkq",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1":   "en-passant square e3",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1":   "not a square",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1":    "counters",
		"4k3/8/8/8/8/8/4R3/4K3 w - - 0 1":                             "not to move is in check",
		"4k3/8/8/8/8/8/8/P3K3 w - - 0 1":                              "first or last rank",
		"rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 2": "",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -":        "",
	} {
		_, err := Parse(in)
		if want == "" {
			if err != nil {
				t.Errorf("%q: %v", in, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}

// TestParseUnreachable: positions that no game reaches are rejected with
// ErrUnreachable and a message saying what is impossible; the reachable
// neighbours of each case parse.
func TestParseUnreachable(t *testing.T) {
	tests := []struct {
		name, fen, want string // want is "" when the position is reachable
	}{
		{"17 white pieces", "rnbqkbnr/pppppppp/8/8/4N3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "17 white pieces"},
		{"9 queens and 8 pawns", "QQQQQQQQ/Q7/8/8/8/8/PPPPPPPP/k3K3 w - - 0 1", "18 white pieces"},
		{"9 black pawns", "rnbqkb1r/pppppppp/4p3/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "9 black pawns"},
		{"a second queen beside 8 pawns", "rnbqkbnr/pppppppp/8/8/4Q3/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1", "8 white pawns and 1 promoted white pieces"},
		{"two light-squared bishops beside 8 pawns", "rnbqkbnr/pppppppp/8/8/8/3B4/PPPPPPPP/RN1QKBNR w KQkq - 0 1", "1 promoted"},
		{"10 knights and a pawn", "NNNNNNNN/NN6/8/8/8/8/4P3/k3K3 w - - 0 1", "1 white pawns and 8 promoted"},
		{"a pawn on the last rank", "4k2P/8/8/8/8/8/8/4K3 w - - 0 1", "first or last rank"},
		{"a pawn on the first rank", "4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "first or last rank"},
		{"no white king", "4k3/8/8/8/8/8/8/8 w - - 0 1", "0 white kings"},
		{"two black kings", "k3k3/8/8/8/8/8/8/4K3 w - - 0 1", "2 black kings"},
		{"the side not to move in check", "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "not to move is in check"},
		{"check from three pieces", "7k/4r3/8/b7/8/3n4/8/4K3 w - - 0 1", "check from 3 pieces"},
		{"castling without the king at home", "r3k2r/8/8/8/8/8/8/R4K1R w K - 0 1", "needs the king on e1 and a rook on h1"},
		{"castling without the rook at home", "r3k1r1/8/8/8/8/8/8/R3K2R w KQk - 0 1", "needs the king on e8 and a rook on h8"},
		{"en passant on the wrong rank", "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 2", "en-passant square e3"},
		{"en passant with no pawn past it", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "en-passant square e6"},
		{"en passant with the start square taken", "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 2", ""},
		{"en passant for black", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", ""},
		{"10 knights and no pawn", "NNNNNNNN/NN6/8/8/8/8/8/k3K3 w - - 0 1", ""},
		{"a second queen for a missing pawn", "rnbqkbnr/pppppppp/8/8/4Q3/8/PPPP1PPP/R1BQKBNR w KQkq - 0 1", ""},
		{"double check", "7k/4r3/8/b7/8/8/8/4K3 w - - 0 1", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.fen)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Parse(%q): %v, want a position", tc.fen, err)
				}
				return
			}
			if !errors.Is(err, games.ErrUnreachable) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Parse(%q) = %v, want ErrUnreachable saying %q", tc.fen, err, tc.want)
			}
		})
	}
}

func TestRules(t *testing.T) {
	outcome := func(fen string) games.Outcome {
		p, err := Parse(fen)
		if err != nil {
			t.Fatal(err)
		}
		_, o := p.Moves(nil)
		return o
	}
	for fen, want := range map[string]games.Outcome{
		"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1":   games.Ongoing,
		"R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1":   games.FirstWins,  // back-rank mate
		"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1":      games.Draw,       // stalemate
		"8/8/4k3/8/8/3K4/8/8 w - - 0 1":       games.Draw,       // kings alone
		"8/8/4k3/8/8/3KN3/8/8 w - - 0 1":      games.Draw,       // one knight
		"8/8/2b1k3/8/8/3K4/4B3/8 w - - 0 1":   games.Draw,       // bishops on light squares (c6, e2)
		"8/8/3bk3/8/8/3K4/4B3/8 w - - 0 1":    games.Ongoing,    // bishops on both colours (d6, e2)
		"8/8/4k3/8/8/3K4/R7/8 w - - 100 80":   games.Draw,       // 50-move rule
		"7k/8/8/8/8/8/5PPP/r5K1 w - - 120 90": games.SecondWins, // a mate outranks the clock
	} {
		if got := outcome(fen); got != want {
			t.Errorf("%s: %v, want %v", fen, got, want)
		}
	}
	// Threefold repetition: knights out and back twice.
	p := Start()
	for _, san := range []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"} {
		m, err := p.ParseMove(san)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
	}
	if _, o := p.Moves(nil); o != games.Draw {
		t.Fatalf("third occurrence of the start: %v", o)
	}
	// En passant that would uncover the king along the rank is illegal.
	q, _ := Parse("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1")
	for _, m := range mustMoves(q) {
		if mFlag(m) == flagEnPassant {
			t.Fatal("pinned en passant generated")
		}
	}
	// Castling through an attacked square is illegal.
	r, _ := Parse("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1")
	for _, m := range mustMoves(r) {
		if mFlag(m) == flagCastle && mTo(m) == 6 {
			t.Fatal("castled through f1")
		}
	}
}

func mustMoves(p *Position) []games.Move {
	m, _ := p.Moves(nil)
	return m
}

func TestPGN(t *testing.T) {
	p := Start()
	var moves []games.Move
	for _, san := range []string{"f3", "e5", "g4", "Qh4#"} {
		m, err := p.ParseMove(san)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		p.Play(m)
	}
	var b bytes.Buffer
	if err := WritePGN(&b, games.GameText{Tags: [][2]string{{"Event", "test"}, {"White", "a"}, {"Black", "b"}}, Result: games.SecondWins}, Start(), moves); err != nil {
		t.Fatal(err)
	}
	want := "[Event \"test\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n"
	if b.String() != want {
		t.Fatalf("PGN:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestDoesNotAllocate(t *testing.T) {
	p, _ := Parse(perftSuite[1].fen)
	buf := make([]games.Move, 0, 256)
	for _, ev := range Game().Evaluators() {
		w := ev.Defaults()
		if a := testing.AllocsPerRun(100, func() { ev.Evaluate(p, w) }); a != 0 {
			t.Errorf("%s: %v allocations", ev.Name, a)
		}
	}
	if a := testing.AllocsPerRun(100, func() {
		moves, _ := p.Moves(buf)
		p.Play(moves[0])
		p.Undo()
		p.Noisy(buf)
		p.QuietChecks(buf[:0])
	}); a != 0 {
		t.Errorf("moves/play/undo/noisy/quiet checks: %v allocations", a)
	}
}

func FuzzParseFEN(f *testing.F) {
	for _, c := range perftSuite {
		f.Add(c.fen)
	}
	f.Add("8/8/8/8/8/8/8/8 w - - 0 1")
	f.Add("k7/8/8/8/8/8/8/K7 w KQkq a3 0 1")
	f.Fuzz(func(t *testing.T, s string) {
		gametest.ParsedRoundTrip(t, Game(), s)
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"e4", "Nf3", "O-O", "e7e8q", "exd5", "Qxf7#", "", "a", "Nbd2", "0-0-0", "e8=Q+"} {
		f.Add(s)
	}
	positions := []*Position{Start()}
	for _, c := range perftSuite[1:] {
		p, _ := Parse(c.fen)
		positions = append(positions, p)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range positions {
			m, err := p.ParseMove(s)
			if err != nil {
				continue
			}
			ok := false
			for _, l := range mustMoves(p) {
				ok = ok || l == m
			}
			if !ok {
				t.Fatalf("%q parsed to an illegal move in %s", s, p)
			}
		}
	})
}

// BenchmarkPerft counts Kiwipete (perftSuite[1]) at 3 and 4 plies and the
// start at 5 and 6 (119,060,324 leaves: issue 18's comparison with
// Stockfish's go perft 6).
func BenchmarkPerft(b *testing.B) {
	for _, c := range []struct {
		name  string
		fen   string
		depth int
	}{
		{"kiwipete/depth=3", perftSuite[1].fen, 3},
		{"kiwipete/depth=4", perftSuite[1].fen, 4},
		{"start/depth=5", StartFEN, 5},
		{"start/depth=6", StartFEN, 6},
	} {
		b.Run(c.name, func(b *testing.B) {
			p, err := Parse(c.fen)
			if err != nil {
				b.Fatal(err)
			}
			perftLists.Put(perftLists.Get(c.depth)) // lists lent before the count: 0 allocs/op however few ops
			var n uint64
			for b.Loop() {
				n += p.Perft(c.depth)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

func BenchmarkMoves(b *testing.B) {
	p, _ := Parse(perftSuite[1].fen)
	buf := make([]games.Move, 0, 256)
	for b.Loop() {
		buf, _ = p.Moves(buf)
	}
}

func BenchmarkPlayUndo(b *testing.B) {
	p, _ := Parse(perftSuite[1].fen)
	moves := mustMoves(p)
	for b.Loop() {
		for _, m := range moves {
			p.Play(m)
			p.Undo()
		}
	}
	b.ReportMetric(float64(len(moves)), "moves/op")
}

func BenchmarkEvaluateTextbook(b *testing.B) {
	p, _ := Parse(perftSuite[1].fen)
	w := textbookEvaluator.Defaults()
	for b.Loop() {
		textbookEvaluator.Evaluate(p, w)
	}
}

func BenchmarkEvaluateArticle(b *testing.B) {
	p, _ := Parse(perftSuite[1].fen)
	w := articleEvaluator.Defaults()
	for b.Loop() {
		articleEvaluator.Evaluate(p, w)
	}
}

// TestParseEPD: EPD lines, the four board fields and operations, as
// opening books and test suites write them: id, c9 and bm are read past,
// hmvc and fmvn give the counters; a FEN may carry operations too.
func TestParseEPD(t *testing.T) {
	for in, want := range map[string]string{
		`rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 id "sicilian";`:         "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 1",
		`rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - c9 "1-0"; id "a b";`:     "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
		`rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - hmvc 0; fmvn 2; bm Nf3;`: "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
		`rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 c0 "from a FEN";`:    "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
		`4k3/8/8/8/8/8/4P3/4K3 b - - hmvc 7; fmvn 40;`:                                     "4k3/8/8/8/8/8/4P3/4K3 b - - 7 40",
	} {
		p, err := Parse(in)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if p.String() != want {
			t.Errorf("%s: %s, want %s", in, p.String(), want)
		}
	}
	for in, want := range map[string]string{
		`4k3/8/8/8/8/8/4P3/4K3 b - - hmvc x;`: "want hmvc N",
		`4k3/8/8/8/8/8/4P3/4K3 b - - fmvn 0;`: "want hmvc N",
		`4k3/8/8/8/8/8/4P3/4K3 b - 0 x y z w`: "en-passant square",
		`4k3/8/8/8/8/8/4P3/4K3 b -`:           "has 3 fields",
	} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

// TestNamedOpenings: the default openings are legal, distinct, six to eight
// plies long, and balanced: a depth-4 search scores none beyond a pawn and
// a half for either side.
func TestNamedOpenings(t *testing.T) {
	s, err := engine.New(engine.Options{TableMiB: 1})
	if err != nil {
		t.Fatal(err)
	}
	ev := Game().Evaluators()[0]
	seen := map[string]bool{}
	for _, line := range Game().(games.OpeningBook).Openings() {
		p := Start()
		moves := strings.Fields(strings.TrimPrefix(line, "moves:"))
		if len(moves) < 6 || len(moves) > 8 {
			t.Errorf("%s: %d plies", line, len(moves))
		}
		for _, mv := range moves {
			m, err := p.ParseMove(mv)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			p.Play(m)
		}
		if seen[p.String()] {
			t.Errorf("%s: the position comes twice", line)
		}
		seen[p.String()] = true
		res, err := s.Search(context.Background(), p, ev, ev.Defaults(), engine.Limits{Depth: 4})
		if err != nil || res.Score > 150 || res.Score < -150 {
			t.Errorf("%s: scored %d (%v)", line, res.Score, err)
		}
	}
	if len(seen) != 50 {
		t.Errorf("%d openings, want 50", len(seen))
	}
}
