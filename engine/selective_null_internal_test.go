package engine

import (
	"context"
	"math"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/chess"
)

// nullProbe is a chess position that checks the null moves the engine
// plays on it: never two in a row, never in check or where the game calls
// them unsafe, the hash after one that of the same position computed from
// scratch (its FEN parsed again), each taken back by UndoNull (never by
// Undo) to the position and hash it left. It also notes whether the search
// reached its node limit with a null move on the board, or within a
// null-move verification search.
type nullProbe struct {
	*chess.Position
	s      *Searcher
	stack  []bool   // the moves on the board below the root: true for a null move
	hashes []uint64 // the hash before each
	fens   []string // the position before each null move ("" for a move)

	nulls, faults int
	failure       string // the first fault
	// afterNull and verifying are the node counts of the last play with a
	// null move on the board and of the last within a verification search:
	// a node limit at either stops the search there. stop is the node
	// limit, and stoppedAfterNull and stoppedVerifying tell where the play
	// that reached it was made.
	afterNull, verifying, stop         int64
	stoppedAfterNull, stoppedVerifying bool
	last                               playNote // the last play, until the engine counts it
}

// playNote is where a play was made: the engine's node count after it,
// after a null move or not, within a verification or not.
type playNote struct {
	nodes                int64
	afterNull, verifying bool
}

func (n *nullProbe) fault(msg string) {
	if n.faults == 0 {
		n.failure = msg + " at " + n.String()
	}
	n.faults++
}

func (n *nullProbe) push(null bool, fen string) {
	n.stack = append(n.stack, null)
	n.hashes = append(n.hashes, n.Hash())
	n.fens = append(n.fens, fen)
}

// played notes where a move or null move was played: after a null move,
// within a verification. The engine counts the node after the play, but
// not the plays that only ask whether a move checks: the note counts when
// the engine has counted the node by the next play or take-back.
func (n *nullProbe) played() {
	n.counted()
	n.last = playNote{nodes: n.s.stats.Nodes + 1, verifying: n.s.sel.nullOff}
	for _, null := range n.stack {
		n.last.afterNull = n.last.afterNull || null
	}
}

// counted takes the note of the last play into account if the engine
// counted its node.
func (n *nullProbe) counted() {
	l := n.last
	if l.nodes == 0 || n.s.stats.Nodes < l.nodes {
		return
	}
	if l.afterNull {
		n.afterNull = l.nodes
	}
	if l.verifying {
		n.verifying = l.nodes
	}
	if l.nodes == n.stop {
		n.stoppedAfterNull, n.stoppedVerifying = l.afterNull, l.verifying
	}
	n.last = playNote{}
}

func (n *nullProbe) PlayNull() {
	n.nulls++
	if len(n.stack) > 0 && n.stack[len(n.stack)-1] {
		n.fault("two null moves in a row")
	}
	if n.InCheck() || !n.Position.NullSafe() {
		n.fault("a null move in check or where unsafe")
	}
	n.push(true, n.String())
	before := n.Hash()
	n.Position.PlayNull()
	if q, err := chess.Parse(n.String()); err != nil || q.Hash() != n.Hash() || n.Hash() == before {
		n.fault("a null move's hash not the position's")
	}
	n.played()
}

func (n *nullProbe) UndoNull() {
	n.counted()
	top := len(n.stack) - 1
	if top < 0 || !n.stack[top] {
		n.fault("UndoNull of a move")
		n.Position.UndoNull()
		return
	}
	n.Position.UndoNull()
	if n.String() != n.fens[top] || n.Hash() != n.hashes[top] {
		n.fault("UndoNull did not restore the position")
	}
	n.stack, n.hashes, n.fens = n.stack[:top], n.hashes[:top], n.fens[:top]
}

func (n *nullProbe) Play(m games.Move) {
	n.push(false, "")
	n.Position.Play(m)
	n.played()
}

func (n *nullProbe) Undo() {
	n.counted()
	n.last = playNote{} // a play not counted: the engine asked whether it checks
	top := len(n.stack) - 1
	if top < 0 || n.stack[top] {
		n.fault("Undo of a null move")
	} else {
		n.stack, n.hashes, n.fens = n.stack[:top], n.hashes[:top], n.fens[:top]
	}
	n.Position.Undo()
}

// probedPST is chess's pst evaluator reading the position under a
// nullProbe, plus tempo centipawns for the side to move.
func probedPST(t *testing.T, tempo int) *games.Evaluator {
	t.Helper()
	pst, err := games.FindEvaluator(chess.Game(), "pst")
	if err != nil {
		t.Fatal(err)
	}
	ev := pst.Clone()
	ev.Evaluate = func(p games.Position, w []float64) int { return pst.Evaluate(p.(*nullProbe).Position, w) + tempo }
	return ev
}

// nullFENs are middlegames and endings where null moves prune, and one
// where the side to move has only its king and pawns.
var nullFENs = []string{
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
	"2rq1rk1/pp1bppbp/2np1np1/8/3NP3/1BN1BP2/PPPQ2PP/2KR3R b - - 8 11",
	"8/5pk1/6p1/8/3K4/6P1/5P2/4R3 w - - 0 1",
	"r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
}

// TestNullMoveSearchInvariants: selective searches of chess positions to
// depth 6, in full and stopped at node limits that fall after null moves
// and within their verification searches (null-verify-from 3 with a
// reduction of 1 makes these frequent and long), play null moves only as
// nullProbe allows, leave the position as they found it, and leave the
// searcher's null-move state cleared (no ply marked as reached by a null
// move, no verification under way) for the next search. With an
// evaluation that gives the side to move 300 centipawns (and without
// reverse futility, which would end those nodes first), the condition that
// the static evaluation reach beta no longer keeps both sides from passing
// in turn: the null move's own rule must.
//
// The searches start from the engine's hand-set values, not chess's own
// (SPSA's, whose reverse futility ends more nodes before their null move
// and leaves few verifications to stop in).
func TestNullMoveSearchInvariants(t *testing.T) {
	params := DefaultSearchParams(nil)
	params.NullVerifyFrom, params.NullReduction, params.NullDivisor = 3, 1, 16
	tempo := DefaultSearchParams(nil)
	tempo.NullReduction, tempo.NullDivisor, tempo.ReverseMaxDepth = 1, 16, 0
	configs := []struct {
		ev   *games.Evaluator
		opts Options
	}{
		{probedPST(t, 0), Options{TableMiB: 1, Selective: true, Params: DefaultSearchParams(nil)}},
		{probedPST(t, 0), Options{TableMiB: 1, Selective: true, Params: params}},
		{probedPST(t, 300), Options{TableMiB: 1, Selective: true, Params: tempo}},
	}
	const depth = 6
	stops := 0
	for _, fen := range nullFENs {
		p, err := chess.Parse(fen)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range configs {
			ev, w := c.ev, c.ev.Defaults()
			s, err := New(c.opts)
			if err != nil {
				t.Fatal(err)
			}
			search := func(limit int64) *nullProbe {
				n := &nullProbe{Position: p, s: s, stop: limit}
				s.NewGame()
				res, err := s.Search(context.Background(), n, ev, w, Limits{Depth: depth, Nodes: limit})
				if err != nil {
					t.Fatal(err)
				}
				if n.faults > 0 {
					t.Errorf("%s, %d nodes: %d faults, the first: %s", fen, limit, n.faults, n.failure)
				}
				if len(n.stack) != 0 || n.String() != fen {
					t.Errorf("%s, %d nodes: the search left %s with %d moves on the board", fen, limit, n.String(), len(n.stack))
				}
				if s.sel.nullOff || s.sel.afterNull != [MaxPly + 2]bool{} {
					t.Errorf("%s, %d nodes: the search left its null-move state set (verifying %v)", fen, limit, s.sel.nullOff)
				}
				if limit == 0 && res.Stats.Depth != depth || limit > 0 && res.Stats.Nodes != limit {
					t.Errorf("%s, %d nodes: depth %d, %d nodes", fen, limit, res.Stats.Depth, res.Stats.Nodes)
				}
				return n
			}
			full := search(0)
			if full.nulls == 0 {
				t.Errorf("%s: no null move", fen)
			}
			// The same search again, stopped where it had a null move on
			// the board, and where it was verifying, the last time.
			if n := search(full.afterNull); !n.stoppedAfterNull {
				t.Errorf("%s: %d nodes: the search did not stop after a null move", fen, full.afterNull)
			}
			if full.verifying > 0 {
				stops++
				if n := search(full.verifying); !n.stoppedVerifying {
					t.Errorf("%s: %d nodes: the search did not stop within a verification", fen, full.verifying)
				}
			}
		}
	}
	if stops < 3 {
		t.Errorf("%d searches stopped within a verification, want at least 3", stops)
	}
}

// prepare sets s up to search p as Search does, for tests that call its
// nodes directly.
func (s *Searcher) prepare(p games.Position, ev *games.Evaluator, w []float64) {
	s.pos, s.ev, s.w = p, ev, w
	s.newEvals()
	s.checker, _ = p.(games.Checker)
	s.quietChecker, _ = p.(games.QuietChecker)
	s.repeater, _ = p.(games.Repeater)
	s.setSelection(p)
	s.stats = Stats{Nodes: 1}
	s.nodeLimit, s.stop = math.MaxInt64, false
	s.extendTo = 2 * MaxPly
}

// TestNullMoveCutNoMate: where the null move's search finds a mate (white
// passes; black's only move, Kg8, allows Ra8 mate, which the table holds
// from an earlier search), the node it ends is scored beta, not the mate,
// which the null move proves nothing of; and the table keeps no result for
// the node itself (a result there could only be a lower bound).
func TestNullMoveCutNoMate(t *testing.T) {
	pst, err := games.FindEvaluator(chess.Game(), "pst")
	if err != nil {
		t.Fatal(err)
	}
	p, err := chess.Parse("7k/8/6K1/8/8/8/8/R7 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{TableMiB: 1, Selective: true})
	if err != nil {
		t.Fatal(err)
	}
	s.prepare(p, pst, pst.Defaults())
	const depth, ply, beta = 8, 1, 100
	p.PlayNull()
	kg8, err := p.ParseMove("Kg8")
	if err != nil {
		t.Fatal(err)
	}
	p.Play(kg8)
	if v := s.negamax(2, ply+2, -infinity, infinity); v != Mate-(ply+3) {
		t.Fatalf("after Kg8: %d, want the mate in one, %d", v, Mate-(ply+3))
	}
	p.Undo()
	p.UndoNull()
	if eval := s.evaluate(); eval < beta {
		t.Fatalf("static evaluation %d: want at least beta %d, for the null move to be tried", eval, beta)
	}
	score, cut, _ := s.pruneNode(depth, ply, beta-1, beta, s.evaluate())
	if !cut || score != beta {
		t.Errorf("pruneNode: score %d, cut %v; want %d, true", score, cut, beta)
	}
	if _, ok := s.table.probe(p.Hash()); ok {
		t.Errorf("the table holds a result for the node the null move ended")
	}
	// The null move's own search found the mate: its position, black to
	// move, is in the table as lost for black.
	p.PlayNull()
	e, ok := s.table.probe(p.Hash())
	p.UndoNull()
	if !ok || !IsLoss(int(fromTable(e.score, ply+1))) {
		t.Errorf("the null move's search: table entry %+v (found %v), want a loss for black", e, ok)
	}
	if got := s.negamax(depth, ply, beta-1, beta); got != beta {
		t.Errorf("negamax: %d, want %d", got, beta)
	}
	if s.sel.afterNull != [MaxPly + 2]bool{} || s.sel.nullOff {
		t.Error("the null-move state is left set")
	}
}

// TestNullMoveTableCheck: with null-table-check 1, a node whose table
// entry is an upper bound below beta (it failed low before) tries no null
// move; one whose entry is an upper bound at beta or above, or a lower
// bound, or with the check off, does (and here the null move cuts).
func TestNullMoveTableCheck(t *testing.T) {
	pst, err := games.FindEvaluator(chess.Game(), "pst")
	if err != nil {
		t.Fatal(err)
	}
	const fen = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
	const depth, ply = 8, 1
	for _, c := range []struct {
		name  string
		check int
		bound bound
		below bool // the entry's score below beta
		null  bool
	}{
		{"upper bound below beta", 1, boundUpper, true, false},
		{"upper bound below beta, check off", 0, boundUpper, true, true},
		{"upper bound at beta", 1, boundUpper, false, true},
		{"lower bound below beta", 1, boundLower, true, true},
	} {
		p, err := chess.Parse(fen)
		if err != nil {
			t.Fatal(err)
		}
		params := DefaultSearchParams(p)
		params.NullTableCheck = c.check
		s, err := New(Options{TableMiB: 1, Selective: true, Params: params})
		if err != nil {
			t.Fatal(err)
		}
		w := &nullProbe{Position: p, s: s}
		s.prepare(w, probedPST(t, 0), pst.Defaults())
		eval := s.evaluate()
		beta := eval - 50
		score := beta
		if c.below {
			score = beta - 1
		}
		s.table.store(p.Hash(), games.NoMove, toTable(score, ply), depth-2, c.bound)
		_, cut, _ := s.pruneNode(depth, ply, beta-1, beta, eval)
		if (w.nulls > 0) != c.null || w.faults > 0 {
			t.Errorf("%s: %d null moves (cut %v), want them %v; %s", c.name, w.nulls, cut, c.null, w.failure)
		}
	}
}
