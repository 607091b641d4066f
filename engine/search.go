package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync/atomic"

	"github.com/gametune/gametune/games"
)

// Mate is the score of a won game at the root; a win found ply plies below
// the root scores Mate-ply, so the engine prefers the quicker win and the
// slower loss. Every static evaluation lies within ±games.MaxEval, far below.
const Mate = 1 << 24

// MaxPly bounds the depth of the search tree, quiescence included.
const MaxPly = 128

// infinity is above every score.
const infinity = Mate + 1

// IsWin reports whether score announces a forced win; IsLoss, a forced loss.
func IsWin(score int) bool  { return score > Mate-MaxPly }
func IsLoss(score int) bool { return score < -(Mate - MaxPly) }

// Options configure a Searcher. The zero value is a full-strength searcher
// with a 16 MiB table; the No* switches turn single enhancements off, for
// tests and measurements.
type Options struct {
	TableMiB         int // transposition table size; 0 means 16
	AspirationSize   int // half-width of the first aspiration window; 0 means 50
	NoTable          bool
	NoPVS            bool
	NoAspiration     bool
	NoKillers        bool
	NoHistory        bool
	NoHint           bool // ignore the game's Orderer
	NoQuiescence     bool
	NoExact          bool // never extend the search to the end of the game (games.Exact)
	NoCheckExtension bool // do not search a ply deeper where the side to move is in check (games.Checker)
	NoQuietChecks    bool // quiescence without quiet checks and check evasions (games.QuietChecker)
	NoMoveExtensions bool // do not search a ply deeper after the moves the game names (games.Extender)
	NoRepetitions    bool // score a repetition as a draw only at the third occurrence, as the rules do (games.Repeater)
	NoFrontier       bool // search the last plies here even when the game can (games.Frontier)
	FrontierDepth    int  // the most plies above the horizon a games.Frontier takes; 0 means the game's own
	NoEnder          bool // search the last plies of a game here even when the game can (games.Ender)
	// SolveRoot lets the game's own solver answer a search without a node
	// limit from a root in the exact range of a games.RootSolver
	// (PliesLeft >= 0): a move that keeps the game's value, and the score
	// the engine's search to the end returns (rootsolve.go). Off (the
	// default), the engine searches those roots itself: the same scores,
	// the moves may differ among those of the same value.
	SolveRoot bool

	// Selective turns the selective search on: table entries end a node
	// at their depth or deeper, and the techniques below prune and reduce
	// where the game allows them, with the numbers of Params. The search
	// then no longer returns the minimax value to its depth; it reaches
	// deeper in the same time. Off (the zero value), the search is the
	// exact full-width one and the switches below do nothing.
	Selective bool
	// Params are the numbers of the selective search; the zero value means
	// the game's defaults (DefaultSearchParams).
	Params SearchParams
	// Switches for single techniques of the selective search, for tests
	// and measurements.
	NoNullMove        bool // null-move pruning (games.NullMover)
	NoLateReductions  bool // late-move reductions
	NoLatePruning     bool // late-move pruning
	NoFutility        bool // futility pruning of quiet moves
	NoReverseFutility bool // reverse futility pruning (static null move)
	NoRazoring        bool // razoring
	NoExchangePruning bool // skip losing captures in quiescence (games.Exchanger)
	NoProbCut         bool // Multi-ProbCut (games.ProbCutter)
	NoReduceUnordered bool // internal iterative reductions
	ExactTableCuts    bool // table entries end a node only at exactly the depth asked, as in the exact search
}

// Limits bound one search. Tuning uses Depth or Nodes so that results are
// reproducible; a search stops at whichever comes first. At least one must
// be set.
type Limits struct {
	Depth int   // plies of full-width search; 0 means no depth limit (up to MaxPly/2)
	Nodes int64 // positions visited; 0 means no node limit
}

// Stats describe one search.
type Stats struct {
	Nodes        int64   // positions visited (each move played), quiescence included, plus the root
	QNodes       int64   // positions visited by quiescence search
	Evals        int64   // static evaluations (and draws by repetition) in the last completed iteration: 0 when its tree was exhausted
	TTHits       int64   // table probes that found the position
	TTCuts       int64   // table probes that ended the node
	Cutoffs      int64   // beta cutoffs
	FirstCutoffs int64   // beta cutoffs made by the first move searched
	Depth        int     // depth of the last completed iteration
	EBF          float64 // effective branching factor: Nodes^(1/Depth)
}

// FirstCutoffShare is the share of beta cutoffs made by the first move: the
// quality of move ordering (above 0.9 is good).
func (s Stats) FirstCutoffShare() float64 {
	if s.Cutoffs == 0 {
		return 0
	}
	return float64(s.FirstCutoffs) / float64(s.Cutoffs)
}

// Result is the outcome of one search.
type Result struct {
	Move  games.Move   // best move found
	Score int          // from the side to move's point of view; see Mate
	PV    []games.Move // principal variation; valid until the next Search
	Stats Stats
}

// ErrGameOver is returned when the root position has no moves.
var ErrGameOver = errors.New("engine: the game is over in this position")

// ErrNoLimit is returned when neither a depth nor a node limit is given.
var ErrNoLimit = errors.New("engine: a search needs a depth or a node limit")

const historySize = 1 << 12

// Searcher is a negamax alpha-beta searcher with principal variation search,
// iterative deepening, aspiration windows, a transposition table, killer and
// history move ordering and quiescence search. It is not safe for
// concurrent use: give each goroutine its own. After the first searches
// have grown its buffers, a search allocates nothing.
//
// The table keeps the depth of each result and ends a node only with a
// result of exactly the depth asked: the value of a search to depth d is
// then the minimax value to depth d, whatever the table held before, and
// the table still orders every move it has seen. Call NewGame between
// games so that a game depends on its inputs alone. With
// Options.Selective it searches selectively instead (selective.go).
type Searcher struct {
	opts  Options
	table *Table

	pos           games.Position
	orderer       games.Orderer
	checker       games.Checker      // nil when the game has no checks or the extension is off
	quietChecker  games.QuietChecker // nil when the game has none or the option is off
	extender      games.Extender     // nil when the game has none or the extensions are off
	repeater      games.Repeater     // nil when the game has none or NoRepetitions is set
	outcomer      games.Outcomer     // nil when the game has none, or has checks (a check at the horizon needs the moves)
	frontier      games.Frontier     // nil when the game has none, or the option is off
	frontierDepth int                // the frontier's FrontierDepth, at most Options.FrontierDepth
	ender         games.Ender        // nil when the game has none, or NoExact or NoEnder is set
	endPlies      int                // the ender's EndPlies
	endSolver     games.EndSolver    // made at the first root a games.RootSolver solves (Options.SolveRoot), and kept
	endSolverOf   reflect.Type       // the type of the position that made endSolver
	extendTo      int                // check and move extensions only while ply < extendTo
	ev            *games.Evaluator
	w             []float64
	// evals caches the evaluations of this search (and of QuietLeaf's) by
	// position hash: an entry counts only with the search's evalGen, so a
	// new search, which may bring other weights, starts with none.
	evals   []evalEntry
	evalGen uint32

	killers [MaxPly + 1][2]games.Move
	history [2][historySize]uint32 // at most 1<<24: halving is a shift
	// used[side] lists the slots of history[side] that are not 0, each
	// once, so that the halving before a search visits only those (an
	// Othello side uses at most 65 of the 4,096).
	used   [2][]uint16
	moves  [MaxPly + 1][]games.Move
	keys   [MaxPly + 1][]int32
	pv     [MaxPly + 1][MaxPly + 1]games.Move
	pvLen  [MaxPly + 1]int
	rootPV []games.Move

	sel selection // the selective search's state (selective.go)

	stats     Stats
	nodeLimit int64
	stop      bool
	done      <-chan struct{}
	// seen is stats.Nodes as of the last check of done (every 1,024
	// nodes), for Progress on another goroutine.
	seen atomic.Int64
}

// Progress is the number of nodes the search in progress has visited, as
// of its last check for cancellation (every 1,024 nodes or so); 0 between
// searches. Unlike the searcher's other methods it may be called from any
// goroutine while the search runs, to show how it advances.
func (s *Searcher) Progress() int64 { return s.seen.Load() }

// New returns a searcher with its table allocated.
func New(opts Options) (*Searcher, error) {
	if opts.TableMiB == 0 {
		opts.TableMiB = 16
	}
	if opts.AspirationSize == 0 {
		opts.AspirationSize = 50
	}
	if opts.AspirationSize < 0 {
		return nil, fmt.Errorf("engine: aspiration window %d must be positive", opts.AspirationSize)
	}
	if opts.Params != (SearchParams{}) {
		if err := opts.Params.Check(); err != nil {
			return nil, err
		}
	}
	t, err := NewTable(opts.TableMiB)
	if err != nil {
		return nil, err
	}
	s := &Searcher{opts: opts, table: t, rootPV: make([]games.Move, 0, MaxPly+1), evals: make([]evalEntry, 1<<evalCacheBits)}
	for i := range s.moves {
		s.moves[i] = make([]games.Move, 0, 256)
		s.keys[i] = make([]int32, 256)
	}
	for side := range s.used {
		s.used[side] = make([]uint16, 0, historySize)
	}
	return s, nil
}

// NewGame clears the table, the killers and the history.
func (s *Searcher) NewGame() {
	s.table.Clear()
	if s.endSolver != nil {
		s.endSolver.NewGame()
	}
	s.killers = [MaxPly + 1][2]games.Move{}
	for side := range s.used {
		for _, i := range s.used[side] {
			s.history[side][i] = 0
		}
		s.used[side] = s.used[side][:0]
	}
}

// Search finds the best move for the side to move in p within the limits,
// evaluating leaves with ev and weights w. p is returned unchanged. When ctx
// is cancelled the search stops within about a thousand nodes and returns
// the result of the last completed iteration with ctx's error.
func (s *Searcher) Search(ctx context.Context, p games.Position, ev *games.Evaluator, w []float64, lim Limits) (Result, error) {
	return s.SearchEach(ctx, p, ev, w, lim, nil)
}

// SearchEach is Search that also gives each completed iteration of the
// iterative deepening to each, when not nil, as it completes (a UCI info
// line): its move, score, PV and the search's stats so far. The PV is the
// searcher's own, valid until each returns. each runs on the search's
// goroutine, once an iteration: nothing is added to the nodes.
func (s *Searcher) SearchEach(ctx context.Context, p games.Position, ev *games.Evaluator, w []float64, lim Limits, each func(Result)) (Result, error) {
	if len(w) != len(ev.Features) {
		return Result{}, fmt.Errorf("engine: evaluator %q has %d features, got %d weights", ev.Name, len(ev.Features), len(w))
	}
	if lim.Depth < 0 || lim.Nodes < 0 {
		return Result{}, fmt.Errorf("engine: negative limits (depth %d, nodes %d)", lim.Depth, lim.Nodes)
	}
	if lim.Depth == 0 && lim.Nodes == 0 {
		return Result{}, ErrNoLimit
	}
	rootMoves, outcome := p.Moves(s.moves[0][:0])
	if outcome != games.Ongoing || len(rootMoves) == 0 {
		return Result{}, ErrGameOver
	}
	s.pos, s.ev, s.w = p, ev, w
	s.newEvals()
	s.orderer = nil
	if o, ok := p.(games.Orderer); ok && !s.opts.NoHint {
		s.orderer = o
	}
	s.checker = nil
	if c, ok := p.(games.Checker); ok && !s.opts.NoCheckExtension {
		s.checker = c
	}
	s.quietChecker = nil
	if c, ok := p.(games.QuietChecker); ok && !s.opts.NoQuietChecks {
		s.quietChecker = c
	}
	s.extender = nil
	if e, ok := p.(games.Extender); ok && !s.opts.NoMoveExtensions {
		s.extender = e
	}
	s.repeater = nil
	if r, ok := p.(games.Repeater); ok && !s.opts.NoRepetitions {
		s.repeater = r
	}
	s.outcomer = nil
	if o, ok := p.(games.Outcomer); ok && s.checker == nil {
		s.outcomer = o
	}
	s.frontier = nil
	if f, ok := p.(games.Frontier); ok && s.checker == nil && !s.opts.NoFrontier {
		s.frontier, s.frontierDepth = f, min(f.FrontierDepth(), 2)
		if s.opts.FrontierDepth > 0 {
			s.frontierDepth = min(s.frontierDepth, s.opts.FrontierDepth)
		}
	}
	// The ender is asked at every node only when the root is near the end
	// already (PliesLeft known). From the midgame a search rarely reaches
	// the ender's few plies, so the calls would be wasted; the engine
	// searches those nodes itself, to the same values.
	s.ender = nil
	if e, ok := p.(games.Ender); ok && !s.opts.NoExact && !s.opts.NoEnder && e.PliesLeft() >= 0 {
		s.ender, s.endPlies = e, e.EndPlies()
	}
	s.setSelection(p)
	s.stats = Stats{Nodes: 1}
	s.nodeLimit = lim.Nodes
	if s.nodeLimit == 0 {
		s.nodeLimit = math.MaxInt64
	}
	s.stop = false
	s.done = ctx.Done()
	s.seen.Store(0)
	defer s.seen.Store(0)
	s.killers = [MaxPly + 1][2]games.Move{}
	for side := range s.used {
		kept := s.used[side][:0]
		for _, i := range s.used[side] {
			if s.history[side][i] /= 2; s.history[side][i] != 0 {
				kept = append(kept, i)
			}
		}
		s.used[side] = kept
	}

	maxDepth := lim.Depth
	if maxDepth == 0 || maxDepth > MaxPly/2 {
		maxDepth = MaxPly / 2
	}
	exactDepth := 0
	if x, ok := p.(games.Exact); ok && !s.opts.NoExact {
		if left := x.PliesLeft(); left > maxDepth && left < MaxPly/2 {
			exactDepth = left
		}
	}

	res := Result{Move: rootMoves[0]}
	solved, solveErr := s.solveRoot(ctx, p, lim, &res, each)
	score := int32(0)
	for depth := 1; !solved && (depth <= maxDepth || exactDepth > 0); depth++ {
		if depth > maxDepth {
			depth, exactDepth = exactDepth, 0
		}
		evals := s.stats.Evals
		s.stats.Evals = 0
		s.extendTo = 2 * depth
		sc := s.aspiration(depth, score)
		if s.stop {
			s.stats.Evals = evals
			break
		}
		score = sc
		res.Score = int(sc)
		s.stats.Depth = depth
		s.rootPV = append(s.rootPV[:0], s.pv[0][:s.pvLen[0]]...)
		if len(s.rootPV) > 0 {
			res.Move = s.rootPV[0]
		}
		if each != nil {
			res.PV, res.Stats = s.rootPV, s.iterationStats()
			each(res)
		}
	}
	res.PV = s.rootPV
	res.Stats = s.iterationStats()
	s.pos, s.ev, s.w, s.orderer, s.checker, s.quietChecker, s.outcomer, s.frontier, s.ender = nil, nil, nil, nil, nil, nil, nil, nil, nil
	s.sel.checks, s.sel.nullMover, s.sel.exchanger, s.sel.prober = nil, nil, nil, nil
	if solveErr != nil {
		return res, solveErr
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	return res, nil
}

// iterationStats are the stats so far, with the effective branching
// factor of the last completed iteration.
func (s *Searcher) iterationStats() Stats {
	st := s.stats
	if st.Depth > 0 {
		st.EBF = math.Pow(float64(st.Nodes), 1/float64(st.Depth))
	}
	return st
}

// aspiration searches the root to depth with a window around the previous
// iteration's score, widening it until the score falls inside.
func (s *Searcher) aspiration(depth int, prev int32) int32 {
	if s.opts.NoAspiration || depth < 3 || IsWin(int(prev)) || IsLoss(int(prev)) {
		return s.negamax(depth, 0, -infinity, infinity)
	}
	delta := int32(s.opts.AspirationSize)
	alpha, beta := max(prev-delta, -infinity), min(prev+delta, infinity)
	for {
		sc := s.negamax(depth, 0, alpha, beta)
		if s.stop {
			return sc
		}
		switch {
		case sc <= alpha:
			alpha = max(sc-delta, -infinity)
		case sc >= beta:
			beta = min(sc+delta, infinity)
		default:
			return sc
		}
		delta *= 2
	}
}

// terminal scores a finished game from the side to move's point of view.
func terminal(o games.Outcome, turn games.Side, ply int) int32 {
	winner, ok := o.Winner()
	if !ok {
		return 0
	}
	if winner == turn {
		return Mate - int32(ply)
	}
	return -(Mate - int32(ply))
}

// toTable and fromTable make win scores relative to the node that stores
// them, so that a stored win keeps its distance from wherever it is found.
func toTable(score int32, ply int) int32 {
	switch {
	case score > Mate-MaxPly:
		return score + int32(ply)
	case score < -(Mate - MaxPly):
		return score - int32(ply)
	}
	return score
}

func fromTable(score int32, ply int) int32 {
	switch {
	case score > Mate-MaxPly:
		return score - int32(ply)
	case score < -(Mate - MaxPly):
		return score + int32(ply)
	}
	return score
}

// play makes move m and counts the new position, stopping the search when
// a limit is reached.
func (s *Searcher) play(m games.Move) {
	s.pos.Play(m)
	s.stats.Nodes++
	if s.stats.Nodes >= s.nodeLimit {
		s.stop = true
	}
	if s.stats.Nodes&1023 == 0 && s.done != nil {
		s.seen.Store(s.stats.Nodes)
		select {
		case <-s.done:
			s.stop = true
		default:
		}
	}
}

func (s *Searcher) evaluate() int32 {
	s.stats.Evals++
	key := s.pos.Hash()
	e := &s.evals[key>>(64-evalCacheBits)]
	if e.key == key && e.gen == s.evalGen {
		return e.v
	}
	v := int32(min(max(s.ev.Evaluate(s.pos, s.w), -games.MaxEval), games.MaxEval))
	*e = evalEntry{key: key, v: v, gen: s.evalGen}
	return v
}

// repeated tells whether the node at ply repeats the root or a node
// between them (games.Repeater), to be scored a draw. The draw is a guess,
// as an evaluation is, and counts as one in Stats.Evals: a tree with one
// is not exhausted, and Solve does not call its value exact.
func (s *Searcher) repeated(ply int) bool {
	if s.repeater == nil || !s.repeater.Repeats(ply) {
		return false
	}
	s.stats.Evals++
	return true
}

// evalCacheBits sizes a Searcher's evaluation cache: 1<<16 entries of 16
// bytes, 1 MiB. Searching four chess middlegames to depth 6 (iterative
// deepening evaluates many leaves again at each deeper iteration, and
// quiescence nodes are not in the table), pst computed 22% fewer
// evaluations with it (5.39 million without; 16% with 1<<12 entries, 26%
// with 1<<18).
const evalCacheBits = 16

// evalEntry is a cached evaluation: the position's hash, its value, and the
// generation of the search that computed it.
type evalEntry struct {
	key uint64
	v   int32
	gen uint32
}

// newEvals starts a generation of the evaluation cache: what earlier
// searches cached no longer counts (their weights may differ). At the
// generation counter's wrap the cache is cleared.
func (s *Searcher) newEvals() {
	s.evalGen++
	if s.evalGen == 0 {
		clear(s.evals)
		s.evalGen = 1
	}
}

func (s *Searcher) historySlot(m games.Move) int {
	return int((uint64(m) * 0x9E3779B97F4A7C15) >> (64 - 12))
}

func (s *Searcher) hint(m games.Move, depth int) int32 {
	if s.orderer == nil {
		return 0
	}
	return s.orderer.OrderHint(m, depth)
}

// orderKey ranks a move for searching: the table's move first, then moves
// the game hints are good (captures), then the killers, then the rest by
// history plus the game's hint.
func (s *Searcher) orderKey(m, ttMove games.Move, depth, ply int, turn games.Side) int32 {
	if m == ttMove {
		return math.MaxInt32
	}
	h := s.hint(m, depth)
	if h > 0 {
		return 1<<28 + min(h, 1<<26)
	}
	if !s.opts.NoKillers {
		if m == s.killers[ply][0] {
			return 1<<27 + 1
		}
		if m == s.killers[ply][1] {
			return 1 << 27
		}
	}
	k := max(h, -(1 << 26))
	if !s.opts.NoHistory {
		k += int32(s.history[turn][s.historySlot(m)])
	}
	return k
}

// probe looks key up in the table: the move stored, and the stored score
// with true when it settles the node (below the root, at the same depth,
// with a bound that holds for the window; in the selective search, at
// the same depth or deeper).
func (s *Searcher) probe(key uint64, depth, ply int, alpha, beta int32) (games.Move, int32, bool) {
	e, ok := s.table.probe(key)
	if !ok {
		return games.NoMove, 0, false
	}
	s.stats.TTHits++
	if ply > 0 && (int(e.depth) == depth || (s.sel.on && !s.opts.ExactTableCuts && int(e.depth) > depth)) {
		sc := fromTable(e.score, ply)
		if e.bound == boundExact || (e.bound == boundLower && sc >= beta) || (e.bound == boundUpper && sc <= alpha) {
			s.stats.TTCuts++
			return e.move, sc, true
		}
	}
	return e.move, 0, false
}

// store keeps a node's result in the table, bounded by the window it was
// searched with.
func (s *Searcher) store(key uint64, move games.Move, best, alpha, beta int32, depth, ply int) {
	b := boundExact
	switch {
	case best <= alpha:
		b = boundUpper
	case best >= beta:
		b = boundLower
	}
	s.table.store(key, move, toTable(best, ply), depth, b)
}

// learn records a quiet move that made a beta cutoff in the killers and
// the history.
func (s *Searcher) learn(m games.Move, depth, ply int, turn games.Side) {
	if !s.opts.NoKillers && s.killers[ply][0] != m {
		s.killers[ply][1] = s.killers[ply][0]
		s.killers[ply][0] = m
	}
	if !s.opts.NoHistory {
		slot := s.historySlot(m)
		h := &s.history[turn][slot]
		if *h == 0 {
			s.used[turn] = append(s.used[turn], uint16(slot))
		}
		*h = min(*h+uint32(depth*depth), 1<<24)
	}
}

// rank computes the moves' keys and puts the best-ranked first: what
// pick(moves, keys, 0) would do, in the ranking pass.
func (s *Searcher) rank(moves []games.Move, keys []int32, ttMove games.Move, depth, ply int, turn games.Side) {
	first := 0
	for i, m := range moves {
		k := s.orderKey(m, ttMove, depth, ply, turn)
		keys[i] = k
		if k > keys[first] {
			first = i
		}
	}
	moves[0], moves[first] = moves[first], moves[0]
	keys[0], keys[first] = keys[first], keys[0]
}

// pick moves the best-ranked remaining move to index i.
func pick(moves []games.Move, keys []int32, i int) {
	best := i
	for j := i + 1; j < len(moves); j++ {
		if keys[j] > keys[best] {
			best = j
		}
	}
	moves[i], moves[best] = moves[best], moves[i]
	keys[i], keys[best] = keys[best], keys[i]
}

func (s *Searcher) negamax(depth, ply int, alpha, beta int32) int32 {
	s.pvLen[ply] = ply
	if s.stop || s.repeated(ply) {
		return 0
	}
	if s.frontier != nil && depth >= 1 && depth <= s.frontierDepth && ply > 0 && ply < MaxPly {
		if left := s.nodeLimit - s.stats.Nodes; left > maxFrontierLeaves && (depth == 1 || left > maxFrontierLeaves*maxFrontierLeaves) {
			return s.frontierNode(depth, ply, alpha, beta)
		}
	}
	if s.ender != nil && ply > 0 && depth >= 2 {
		if left := s.ender.PliesLeft(); left >= 0 && left <= s.endPlies && left <= depth {
			return s.endNode(ply, alpha, beta)
		}
	}
	var moves []games.Move
	var outcome games.Outcome
	if depth <= 0 && s.outcomer != nil {
		outcome = s.outcomer.Outcome() // the horizon needs no moves
	} else {
		moves, outcome = s.pos.Moves(s.moves[ply][:0])
		s.moves[ply] = moves[:0]
	}
	turn := s.pos.Turn()
	if outcome != games.Ongoing {
		return terminal(outcome, turn, ply)
	}
	inCheck := false
	if s.checker != nil && ply < s.extendTo {
		inCheck = s.checker.InCheck()
	} else if s.sel.on && s.sel.checks != nil {
		inCheck = s.sel.checks.InCheck()
	}
	if ply < s.extendTo && (inCheck || (s.extender != nil && ply > 0 && s.extender.Extend())) {
		depth++
	}
	if depth <= 0 || ply >= MaxPly {
		return s.quiesce(ply, 0, alpha, beta)
	}

	key := s.pos.Hash()
	var ttMove games.Move
	if !s.opts.NoTable {
		var sc int32
		var cut bool
		if ttMove, sc, cut = s.probe(key, depth, ply, alpha, beta); cut {
			return sc
		}
	}

	// The selective search: ends a node outside the principal variation
	// before its moves when the game and the evaluation allow it, and
	// keeps the static evaluation for pruning quiet moves below.
	pv := beta-alpha > 1
	var eval int32
	if s.sel.on && !inCheck && ply > 0 {
		eval = s.evaluate()
		if !pv {
			sc, cut, again := s.pruneNode(depth, ply, alpha, beta, eval)
			if cut {
				return sc
			}
			if again {
				moves, _ = s.pos.Moves(s.moves[ply][:0])
				s.moves[ply] = moves[:0]
			}
		}
		if p := s.sel.par.ReduceUnorderedFrom; p > 0 && ttMove == games.NoMove && depth >= max(p, 2) && !s.opts.NoReduceUnordered {
			depth--
		}
	}
	prunes := s.sel.on && !inCheck && !pv && ply > 0

	if cap(s.keys[ply]) < len(moves) {
		s.keys[ply] = make([]int32, len(moves))
	}
	keys := s.keys[ply][:len(moves)]
	// The table's move goes first, before the others are ranked: most
	// nodes end after it, and then they need no ranking at all. The others
	// keep their order, so that ties rank as they would with it among them.
	start := 0
	if ttMove != games.NoMove {
		for i, m := range moves {
			if m == ttMove {
				copy(moves[1:i+1], moves[:i])
				moves[0], start = m, 1
				break
			}
		}
	}

	origAlpha := alpha
	best, bestMove := int32(-infinity), games.NoMove
	quiets := 0 // quiet moves searched, for late-move pruning
	for i := range moves {
		switch {
		case i < start:
		case i == start:
			s.rank(moves[start:], keys[start:], ttMove, depth, ply, turn)
		default:
			pick(moves, keys, i)
		}
		m := moves[i]
		// A quiet move: neither the table's, nor one the game hints is
		// good (a capture), nor a killer.
		quiet := s.sel.on && i >= start && keys[i] < 1<<27
		if quiet && prunes && best > -infinity && s.prunable(m, depth, quiets, eval, alpha) {
			continue
		}
		if quiet {
			quiets++
		}
		s.play(m)
		var sc int32
		if i == 0 || s.opts.NoPVS {
			sc = -s.negamax(depth-1, ply+1, -beta, -alpha)
		} else {
			r := 0
			if quiet && !inCheck {
				if r = s.lateReduction(depth, i+1, pv); r > 0 && s.sel.checks != nil && s.sel.checks.InCheck() {
					r = 0 // a check is searched in full
				}
			}
			sc = -s.negamax(depth-1-r, ply+1, -alpha-1, -alpha)
			if r > 0 && sc > alpha {
				sc = -s.negamax(depth-1, ply+1, -alpha-1, -alpha)
			}
			if sc > alpha && sc < beta {
				sc = -s.negamax(depth-1, ply+1, -beta, -alpha)
			}
		}
		s.pos.Undo()
		if s.stop {
			return 0
		}
		if sc <= best {
			continue
		}
		best, bestMove = sc, m
		if sc <= alpha {
			continue
		}
		alpha = sc
		s.pv[ply][ply] = m
		n := copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
		s.pvLen[ply] = ply + 1 + n
		if alpha >= beta {
			s.stats.Cutoffs++
			if i == 0 {
				s.stats.FirstCutoffs++
			}
			// Killers and history learn from quiet moves: those without a
			// positive hint.
			if (i >= start && keys[i] < 1<<28) || (m == ttMove && s.hint(m, depth) <= 0) {
				s.learn(m, depth, ply, turn)
			}
			break
		}
	}

	if !s.opts.NoTable {
		s.store(key, bestMove, best, origAlpha, beta, depth, ply)
	}
	return best
}

// maxFrontierLeaves bounds the moves of a position the game searches as a
// frontier node: more than the 33 legal moves an Othello position has at
// most. Below that many nodes left before the limit (its square two plies
// above the horizon), the engine searches the node itself, to stop on the
// very node the limit names.
const maxFrontierLeaves = 64

// frontierNode searches a node depth plies above the horizon with the
// game's Frontier: the same value as the moves played here would give, the
// moves counted as nodes. One ply above the horizon it neither probes nor
// stores the table: there a probe costs more than it saves.
func (s *Searcher) frontierNode(depth, ply int, alpha, beta int32) int32 {
	var ttMove games.Move
	var key uint64
	table := depth > 1 && !s.opts.NoTable
	if table {
		key = s.pos.Hash()
		var sc int32
		var cut bool
		if ttMove, sc, cut = s.probe(key, depth, ply, alpha, beta); cut {
			return sc
		}
	}
	killers := [2][2]games.Move{s.killers[ply], s.killers[ply+1]}
	r := s.frontier.Frontier(s.ev, s.w, depth, alpha, beta, Mate-int32(ply+1), ttMove, killers)
	if r.Outcome != games.Ongoing {
		return terminal(r.Outcome, s.pos.Turn(), ply)
	}
	before := s.stats.Nodes
	s.stats.Nodes += int64(r.Leaves)
	s.stats.Evals += int64(r.Evals)
	s.stats.Cutoffs += int64(r.Cutoffs)
	s.stats.FirstCutoffs += int64(r.FirstCutoffs)
	if s.cancelled(before) {
		return 0
	}
	if table {
		s.store(key, r.Move, r.Score, alpha, beta, depth, ply)
	}
	if r.Score <= alpha {
		return r.Score
	}
	s.pv[ply][ply] = r.Move
	s.pvLen[ply] = ply + 1
	if r.Reply != games.NoMove {
		s.pv[ply][ply+1] = r.Reply
		s.pvLen[ply] = ply + 2
	}
	if r.Score >= beta && s.hint(r.Move, depth) <= 0 {
		s.learn(r.Move, depth, ply, s.pos.Turn())
	}
	return r.Score
}

// cancelled counts nodes found in bulk (by the game) as play counts them
// one by one: when the count passes a multiple of 1024 since before, it
// checks the context and stops the search if it is done.
func (s *Searcher) cancelled(before int64) bool {
	if s.stats.Nodes>>10 == before>>10 || s.done == nil {
		return false
	}
	s.seen.Store(s.stats.Nodes)
	select {
	case <-s.done:
		s.stop = true
		return true
	default:
		return false
	}
}

// endNode searches a node to the end of the game with the game's Ender:
// the value the engine would find, the moves counted as nodes. Below the
// root only, where a move needs no principal variation behind it.
func (s *Searcher) endNode(ply int, alpha, beta int32) int32 {
	r := s.ender.SolveEnd(alpha, beta, Mate-int32(ply), s.nodeLimit-s.stats.Nodes)
	before := s.stats.Nodes
	s.stats.Nodes += r.Nodes
	if r.Stopped || s.stats.Nodes >= s.nodeLimit {
		s.stop = true
		return 0
	}
	if s.cancelled(before) {
		return 0
	}
	if r.Score > alpha && r.Move != games.NoMove {
		s.pv[ply][ply] = r.Move
		s.pvLen[ply] = ply + 1
	}
	return r.Score
}

// quiesce searches only the game's noisy moves below the horizon, with the
// static evaluation as a floor (stand pat) for the side to move, qply
// plies below it. In a games.QuietChecker (quietChecker set), the side to
// move also tries its quiet checks at the first of those plies (qply 0),
// and again at qply 2 and 4 (quietChecksAt), and at the ply after each a
// side in check answers with every legal move, without standing pat: the
// check may be mate (evasionsAt).
func (s *Searcher) quiesce(ply, qply int, alpha, beta int32) int32 {
	s.pvLen[ply] = ply
	if s.stop {
		return 0 // the move that led here reached the node limit: play no other
	}
	if qply > 0 && s.repeated(ply) {
		return 0 // quiet checks and evasions went round
	}
	var moves []games.Move
	best := int32(-infinity)
	captures := 0 // the noisy moves at the head of moves, for the exchange pruning
	if s.quietChecker != nil && evasionsAt(qply) && ply < MaxPly && s.quietChecker.InCheck() {
		var outcome games.Outcome
		if moves, outcome = s.pos.Moves(s.moves[ply][:0]); outcome != games.Ongoing {
			return terminal(outcome, s.pos.Turn(), ply)
		}
	} else {
		stand := s.evaluate()
		if s.opts.NoQuiescence || ply >= MaxPly || stand >= beta {
			return stand
		}
		best, alpha = stand, max(alpha, stand)
		moves = s.pos.Noisy(s.moves[ply][:0])
		if s.sel.exchanger != nil {
			captures = len(moves)
		}
		if s.quietChecker != nil && quietChecksAt(qply, stand) {
			moves = s.quietChecker.QuietChecks(moves)
		}
	}
	s.moves[ply] = moves[:0]
	for i, m := range moves {
		if i < captures && s.sel.exchanger.Exchange(m) < -int32(s.sel.par.ExchangeMargin) {
			continue
		}
		s.stats.QNodes++
		s.play(m)
		sc := -s.quiesce(ply+1, qply+1, -beta, -alpha)
		s.pos.Undo()
		if s.stop {
			return 0
		}
		if sc > best {
			best = sc
			if sc > alpha {
				alpha = sc
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}

// lastQuietCheckPly is the last quiescence ply at which the side to move
// tries its quiet checks: at 0, 2 and 4, its first three moves below the
// horizon, so that a check, the answer, a second check and a third find
// the mate or the fork they lead to. Against pst with checks at ply 0
// alone, both at depth 4: +39.3 [+15.3, +63.6] per pair (200 pairs, seed
// 3001); at 0 and 2 only, +33.1 [+10.1, +56.4]. The tree grows 1.42 times
// on chess middlegames at depth 5 (1.15 with 0 and 2; 2.05 with 0 to 6,
// -8.7 [-23.5, +6.1] per pair against 0 to 4).
const lastQuietCheckPly = 4

// deepCheckMargin: below the first quiescence ply, a side tries its quiet
// checks only while its static evaluation is under 500 centipawns. A side
// already a rook ahead needs no further tactic; its checks there (two
// queens and a rook hunting a bare king) made some depth-5 searches take
// over a minute, six times the nodes of checks at ply 0 alone on those
// positions; with the margin, 1.12 times.
const deepCheckMargin = 500

// quietChecksAt tells whether the side to move, with static evaluation
// stand, tries its quiet checks at quiescence ply qply.
func quietChecksAt(qply int, stand int32) bool {
	return qply == 0 || (qply%2 == 0 && qply <= lastQuietCheckPly && stand < deepCheckMargin)
}

// evasionsAt tells whether a side in check at quiescence ply qply answers
// with every legal move: at the plies after those where quiet checks may
// be tried, whether the check came from a quiet move or a capture.
func evasionsAt(qply int) bool {
	return qply%2 == 1 && qply <= lastQuietCheckPly+1
}
