// Package games defines the contracts every board game in gametune satisfies:
// a Game that names itself, parses positions and lists its evaluators, and a
// mutable Position searched by make/unmake.
//
// The engine, the tournaments and the tuners know games only through this
// package; each game lives in its own package below it (games/othello,
// games/chess, ...) and games/all lists them by name.
package games

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// Move is one move of one game, encoded by that game. The zero Move is never a
// legal move in any game: the engine uses it as "no move".
type Move uint64

// NoMove is the zero Move.
const NoMove Move = 0

// Side is the side to move: First moves first from the start position.
type Side int8

const (
	First  Side = 0
	Second Side = 1
)

// Other returns the opponent of s.
func (s Side) Other() Side { return 1 - s }

// String returns "first" or "second".
func (s Side) String() string {
	if s == First {
		return "first"
	}
	return "second"
}

// Outcome is the state of a game: still going on, or how it ended.
type Outcome int8

const (
	Ongoing    Outcome = iota // the game goes on
	FirstWins                 // the first side won
	SecondWins                // the second side won
	Draw                      // drawn by rule (repetition, no progress, equal discs, ...)
)

// String names the outcome as a result string ("1-0", "0-1", "1/2-1/2", "*").
func (o Outcome) String() string {
	switch o {
	case FirstWins:
		return "1-0"
	case SecondWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// Winner returns the winning side and true, or false for a draw or a game
// that goes on.
func (o Outcome) Winner() (Side, bool) {
	switch o {
	case FirstWins:
		return First, true
	case SecondWins:
		return Second, true
	}
	return First, false
}

// WinFor returns the outcome in which side s wins.
func WinFor(s Side) Outcome {
	if s == First {
		return FirstWins
	}
	return SecondWins
}

// Position is a mutable game state, searched by make/unmake: Play changes it in
// place and Undo takes the last move back. A Position is not safe for
// concurrent use; Clone gives an independent copy.
//
// The hot methods (Moves, Noisy, Play, Undo, Hash) must not allocate.
type Position interface {
	// Moves writes the legal moves of the side to move into dst[:0] and
	// returns them with the outcome of the game. When the outcome is not
	// Ongoing the slice is empty; when it is Ongoing the slice is not
	// (a side that must pass gets one explicit pass move). Games whose
	// rules end a game with moves left (repetition, a ply cap) report it
	// here.
	Moves(dst []Move) ([]Move, Outcome)
	// Noisy writes into dst[:0] the legal moves that quiescence search
	// should follow (captures, promotions), best first by the game's own
	// ordering. Games without such moves return dst[:0]. It is only called
	// on positions whose outcome is Ongoing.
	Noisy(dst []Move) []Move
	// Play makes move m, which must be one returned by Moves.
	Play(m Move)
	// Undo takes back the last move played. It panics if there is none.
	Undo()
	// Hash is a Zobrist hash of everything that decides the future of the
	// game: pieces, side to move, and any rule state (castling, counters).
	Hash() uint64
	// Turn is the side to move.
	Turn() Side
	// Ply counts the moves played since the position was parsed or started.
	Ply() int
	// Clone returns an independent copy, history included.
	Clone() Position
	// String writes the position in the game's notation, which the game's
	// ParsePosition reads back.
	String() string
	// FormatMove writes m, legal in this position, in the game's notation.
	FormatMove(m Move) string
	// ParseMove reads a move in the game's notation and checks that it is
	// legal here; the error says what is wrong (malformed, illegal, why).
	ParseMove(s string) (Move, error)
}

// Drawer is implemented by positions that can draw themselves for a person:
// several lines with coordinates, the side to move and any counts.
type Drawer interface {
	Draw() string
}

// Orderer is implemented by positions that give the engine a move-ordering
// hint: moves with a higher hint are searched earlier. Moves with a positive
// hint (captures, promotions, corners) go after the transposition-table move
// and before the killers; the others are ranked by history plus their hint
// (a negative hint pushes a move back). depth is the remaining depth of the
// node being ordered, so that a game can spend more on nodes far from the
// leaves (e.g. Othello's fewest-replies-first ordering).
type Orderer interface {
	OrderHint(m Move, depth int) int32
}

// Outcomer is implemented by positions that can tell whether the game is
// over without listing the moves (Othello: neither side can move). Outcome
// must equal the outcome Moves returns. The engine asks it at the horizon,
// where it needs no moves, only whether the game goes on.
type Outcomer interface {
	Outcome() Outcome
}

// Frontier is implemented by positions of games without noisy moves that
// search the nodes one or two plies above the horizon themselves (Othello,
// where most of a search's positions are those leaves): each move is made,
// the positions below scored, and the moves taken back, without the
// engine's calls per move. Frontier(depth, ...) must return what the
// engine's alpha-beta to that depth returns, for some order of the moves:
//   - when the game is over at the node itself, its outcome alone;
//   - otherwise a position at the horizon scores its evaluation (ev.Evaluate
//     with w, clamped to ±MaxEval) for its side to move; a finished game
//     scores +win for the side to move at the node if it wins by it, -win
//     if it loses, 0 for a draw, less one for each ply below the node's
//     children; a node scores the best of its moves' scores negated
//     (fail-soft), stopping at the first one at or above its beta;
//   - Score is the node's score within (alpha, beta), Move the move that
//     scored it and Reply the best answer to it (NoMove when the game ended
//     or at depth 1).
//
// first is a move to try first, when legal (the table's); killers[0] and
// killers[1] are killer moves at the node's ply and the next. During
// ev.Evaluate the position holds the board and the side to move of the
// position evaluated, not its history: evaluators must not use Ply. The
// position is returned unchanged.
type Frontier interface {
	FrontierDepth() int // 1 or 2: the most plies above the horizon Frontier takes
	Frontier(ev *Evaluator, w []float64, depth int, alpha, beta, win int32, first Move, killers [2][2]Move) FrontierResult
}

// FrontierResult is what a Frontier search found.
type FrontierResult struct {
	Outcome      Outcome // not Ongoing when the game is over at the node: nothing else is set then
	Score        int32
	Move, Reply  Move
	Leaves       int // moves made, passes included
	Evals        int // positions evaluated
	Cutoffs      int // nodes that stopped at a score at or above beta
	FirstCutoffs int // of those, the ones that stopped at their first move
}

// Ender is implemented by games.Exact positions that search their last
// few plies to the end of the game themselves (Othello's last empty
// squares). When PliesLeft is at most EndPlies and within the depth left,
// the engine asks SolveEnd for the node's value instead of searching it.
// SolveEnd must return what the engine's alpha-beta to the end of the game
// returns, for some order of the moves: each finished game scores +win for
// the side to move at the node if it wins, -win if it loses, 0 for a draw,
// less one for every ply below the node (so that the quicker win scores
// more); a node scores the best of its moves' scores (fail-soft), or the
// first one at or above beta. Nodes counts the moves played, passes
// included. When it would exceed budget, SolveEnd stops after budget moves
// and returns Stopped. The position is returned unchanged.
type Ender interface {
	Exact
	EndPlies() int
	SolveEnd(alpha, beta, win int32, budget int64) EndResult
}

// EndResult is what an Ender's search found.
type EndResult struct {
	Score   int32
	Move    Move // the move that scored Score, NoMove when the game is over at the node
	Nodes   int64
	Stopped bool // budget reached: Score and Move mean nothing
}

// Checker is implemented by positions of games with checks (chess): the
// engine extends the search by a ply at a node whose side to move is in
// check, so that the horizon does not fall in the middle of an attack.
type Checker interface {
	InCheck() bool
}

// QuietChecker is implemented by positions of games with checks whose
// quiescence search should try the quiet moves that give check, at its
// first plies, and answer a check there with every legal move: the tactics
// that begin with a check (a fork, a mate) then do not hide behind the
// horizon. The engine tries them at the side to move's first three
// quiescence moves, below the first only for a side less than 500
// centipawns ahead.
type QuietChecker interface {
	Checker
	// QuietChecks appends legal moves that give check and are not among
	// Noisy's: all of them, or those the game finds worth trying.
	QuietChecks(dst []Move) []Move
}

// Extender is implemented by positions of games where the engine searches
// a ply deeper after some moves: Extend tells whether the last move was
// one (chess: an even recapture, or a pawn's move to its seventh rank). The
// node after it is searched a ply deeper, so that an even exchange or a
// promotion coming just above the horizon does not use up the plies meant
// for what follows it.
type Extender interface {
	Extend() bool
}

// Repeater is implemented by positions of games where a position can come
// again (chess): Repeats tells whether the current position stood within
// the last plies moves, none of them irreversible since. The engine scores
// a node that repeats its root or a node between as a draw, as engines do
// (the rules ask for a third occurrence): a side that can force the
// repetition once can force it again, so a perpetual check is seen as a
// draw plies before the third occurrence, and a side ahead does not spend
// its moves going round.
type Repeater interface {
	Repeats(plies int) bool
}

// NullMover is implemented by positions of games where giving the move to
// the opponent without moving (a null move) is a fair test of a
// position's strength: the engine's selective search (null-move pruning)
// asks for it. PlayNull passes the move and UndoNull takes the pass back;
// neither allocates, and Hash changes with the side to move. NullSafe
// tells whether a null move may be tried here: false where passing could
// be the best move (zugzwang: chess with kings and pawns alone) or is
// against the rules in a way that misleads the search (a side in check, a
// capture that must be made). Games whose passes are real moves (Othello)
// do not implement it.
type NullMover interface {
	NullSafe() bool
	PlayNull()
	UndoNull()
}

// Exchanger is implemented by positions of games with exchanges on a
// square (chess): Exchange is the static exchange evaluation of move m,
// legal here, in the evaluation's units: what the side to move wins (or
// loses, below zero) when both sides then capture on m's target square
// with their least valuable piece first, each free to stop. The engine's
// selective quiescence skips the captures that lose material by it.
type Exchanger interface {
	Exchange(m Move) int32
}

// ProbCutter is implemented by positions of games where a shallow search
// predicts a deep one well (Othello, Buro's Multi-ProbCut): ProbCut gives,
// for a search of depth plies at this position's stage, the depth of the
// shallow search and the linear relation deep = Slope*shallow + Offset
// with Sigma, the deviation of its error, all in the evaluation's units;
// ok is false when the game has none for that depth. The engine's
// selective search cuts a node when the shallow search's prediction
// clears the window by its threshold in deviations.
type ProbCutter interface {
	ProbCut(depth int) (fit ProbCutFit, ok bool)
}

// ProbCutFit is one linear relation between a shallow and a deep search.
type ProbCutFit struct {
	Shallow              int
	Slope, Offset, Sigma float32
}

// SearchDefaulter is implemented by positions of games that have their
// own defaults for some of the engine's search parameters (their names in
// engine.SearchParamList): margins are in the evaluation's units, which
// differ from game to game. The map is the game's and must not be changed.
type SearchDefaulter interface {
	SearchDefaults() map[string]int
}

// Perfter is implemented by games with a fast leaf counter (the last ply
// counted in bulk). It must agree with Perft.
type Perfter interface {
	Perft(depth int) uint64
}

// PerftMover is implemented by positions whose fast counter follows other
// moves than Moves gives: chess counts through draws by rule (repetition,
// the fifty-move rule, bare kings), as the published tables do, where Moves
// ends the game. PerftMoves writes into dst[:0] the moves the counter
// follows from this position; PerftContext splits the counter's tree by
// them.
type PerftMover interface {
	PerftMoves(dst []Move) []Move
}

// Exact is implemented by positions of games that can be searched to their
// end when few moves remain (Othello's endgame). PliesLeft returns an upper
// bound on the plies left in the game, passes included, or -1 when it is
// not small enough to be worth it; the engine then searches to the end and
// weights no longer matter.
type Exact interface {
	PliesLeft() int
}

// Recorder is implemented by games with a standard file format for whole
// games (PGN for chess, PDN for checkers, GGF for Othello).
type Recorder interface {
	WriteGame(w io.Writer, g GameText) error
	// RecordFormat names the format: its file extension ("pgn"), its name
	// ("PGN") and its MIME type.
	RecordFormat() (ext, name, mime string)
}

// OpeningBook is implemented by games with openings of their own, the
// default of matches: "moves: m1 m2 ..." lines from the start.
type OpeningBook interface {
	Openings() []string
}

// BookOpener is implemented by games with an opening book format of moves
// keyed by position (Polyglot .bin for chess): OpenBook reads one of size
// bytes in place.
type BookOpener interface {
	OpenBook(r io.ReaderAt, size int64) (MoveBook, error)
}

// MoveBook is an opening book of moves keyed by position.
type MoveBook interface {
	// BookMoves returns the book's moves in p with their weights.
	BookMoves(p Position) ([]WeightedMove, error)
}

// WeightedMove is a book move with its weight.
type WeightedMove struct {
	Move   Move
	Weight int
}

// GameText is a whole game as a Recorder writes it: the tags in order, the
// start position and the moves in the game's notation, a comment after
// each move where the format has comments (Comments may be shorter than
// Moves, or nil; "" is no comment), a comment before the result saying why
// the game ended (Note), and the result.
type GameText struct {
	Tags     [][2]string
	Start    string
	Moves    []string
	Comments []string
	Note     string
	Result   Outcome
}

// Comment is the comment after move i ("" when there is none).
func (g GameText) Comment(i int) string {
	if i < len(g.Comments) {
		return g.Comments[i]
	}
	return ""
}

// Feature is one term of an evaluation: its weight is what tuners tune.
type Feature struct {
	Name    string  `json:"name"`    // short identifier, lowercase with dashes: "corners", "mobility"
	Doc     string  `json:"doc"`     // one line: what the feature measures
	Default float64 `json:"default"` // the hand-set weight
	Min     float64 `json:"min"`     // smallest weight a tuner may try
	Max     float64 `json:"max"`     // largest weight a tuner may try
	Step    float64 `json:"step"`    // granularity of the weight; 0 means continuous
	// Table, when set, names the table (Evaluator.Tables) whose entries
	// this feature's weight multiplies: a scale rather than a scalar.
	Table string `json:"table,omitempty"`
}

// Evaluator is one named evaluation of a game: a weighted sum of features.
type Evaluator struct {
	Name     string
	Doc      string
	Features []Feature
	// Evaluate scores p, a position of the evaluator's own game, from the
	// point of view of the side to move, as sum(w[i] * f[i]) rounded to an
	// integer, with w in the order of Features. It must not allocate.
	// Scores stay within ±MaxEval. The engine scores finished games itself,
	// but quiescence search may evaluate a position that a noisy move has
	// just ended (its last piece captured): the score must still be sane.
	Evaluate func(p Position, w []float64) int
	// FeatureValues, if set, writes p's feature values into dst (one per
	// feature, in the order of Features, scale included), so that
	// sum(w[i] * dst[i]) is Evaluate(p, w) before its rounding to an
	// integer: the two differ by at most 0.5 (plus float noise). It must
	// not allocate. Texel's tuning needs it.
	FeatureValues func(p Position, dst []float64)

	// Tables, when set, are the evaluator's large weights (Table): Data
	// holds their values, concatenated in the order of Tables, and
	// Evaluate reads them. Some features then scale a table (Feature.Table),
	// by stage where the evaluator has stages; the others are its scalars.
	// FeatureValues stays exact: a scale's value is the sum of the entries
	// it multiplies. Data is shared by the evaluator's copies and never
	// changed: Bind makes an evaluator of other values.
	Tables []Table
	Data   []float32
	// Bind returns a copy of the evaluator that reads data (of TablesSize
	// values, checked by the caller: see WithData) in place of Data.
	Bind func(data []float32) *Evaluator
	// Terms appends to dst[:0] the table entries p activates and returns
	// it, so that Evaluate(p, w) is, before rounding, the sum over them of
	// w[Feature] * Coef * Data[Entry] plus the sum of w[i] * FeatureValues[i]
	// over the scalars i. A position activates a few dozen entries of the
	// many; Terms must not allocate when dst has room.
	Terms func(p Position, dst []TableTerm) []TableTerm
	// Scratch, if set, are the weights a fit of the tables from scratch
	// (empty tables) starts with: the evaluator's hand-set scales and
	// scalars, before any fit set its defaults.
	Scratch []float64
	// Pictures, if set, draws the tables of data as boards (Board) for
	// reports, with the weights w of the features (scales included).
	Pictures func(data []float32, w []float64) []Board
	// PicturesDoc, if set, says what the heatmaps of Pictures show, in
	// place of the reports' words for Othello's (each square's average
	// contribution).
	PicturesDoc string
	// Impl, if set, is the game's own state behind Evaluate (Othello's
	// pattern tables), through which the game's search code may score
	// positions as Evaluate does, to the bit, but faster. A copy that
	// sets another Evaluate must clear it.
	Impl any
}

// MaxEval bounds the magnitude of static evaluations; the engine's win
// scores lie above it.
const MaxEval = 1 << 20

// Defaults returns a new slice with the default weight of every feature.
func (e *Evaluator) Defaults() []float64 {
	w := make([]float64, len(e.Features))
	for i, f := range e.Features {
		w[i] = f.Default
	}
	return w
}

// Clone returns a copy of e with its own Features, so that a caller may
// change the copy without changing what other callers see. Games hand out
// their evaluators through Game.Evaluators as such copies.
func (e *Evaluator) Clone() *Evaluator {
	c := *e
	c.Features = append([]Feature(nil), e.Features...)
	return &c
}

// Index returns the position of the named feature, or -1.
func (e *Evaluator) Index(name string) int {
	for i, f := range e.Features {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// Check verifies that w has one finite value per feature within its range.
func (e *Evaluator) Check(w []float64) error {
	if len(w) != len(e.Features) {
		return fmt.Errorf("games: evaluator %q has %d features, got %d weights", e.Name, len(e.Features), len(w))
	}
	for i, f := range e.Features {
		v := w[i]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("games: weight of feature %q is %v (must be a finite number)", f.Name, v)
		}
		if v < f.Min || v > f.Max {
			return fmt.Errorf("games: weight of feature %q is %g, outside its range [%g, %g]", f.Name, v, f.Min, f.Max)
		}
	}
	return nil
}

// Game is one board game: its name, its notation, its start position and its
// evaluators.
type Game interface {
	// Name is the registry name: "othello", "chess", ...
	Name() string
	// Doc is one line about the game and its rules.
	Doc() string
	// Notation documents how positions and moves are written, with an example.
	Notation() string
	// Start returns a new start position.
	Start() Position
	// ParsePosition reads a position in the game's notation; the error says
	// which part is wrong and what is accepted.
	ParsePosition(s string) (Position, error)
	// Evaluators lists the game's evaluators; the first is the default.
	// Each call returns new copies (see Evaluator.Clone): changing them
	// changes nothing for other callers.
	Evaluators() []*Evaluator
}

// ParseWith calls a game's own parser and returns its position as a
// Position, or nil with the error (never a typed nil inside the interface).
// Games implement Game.ParsePosition with it.
func ParseWith[P Position](parse func(string) (P, error), s string) (Position, error) {
	p, err := parse(s)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// ErrUnreachable is wrapped by the errors of position parsers for positions
// that are well formed but that no legal game reaches (a tic-tac-toe board
// where both sides have three in a row, nine white queens beside eight white
// pawns). The messages say what is impossible; errors.Is finds the kind.
var ErrUnreachable = errors.New("games: no legal game reaches this position")

// Unreachable returns an error whose message is formatted as by fmt.Sprintf
// and which wraps ErrUnreachable without repeating its text. Position
// parsers use it for every rule of reachability they check.
func Unreachable(format string, args ...any) error {
	return &unreachableError{fmt.Sprintf(format, args...)}
}

type unreachableError struct{ msg string }

func (e *unreachableError) Error() string { return e.msg }
func (e *unreachableError) Unwrap() error { return ErrUnreachable }

// ErrUnknownEvaluator is returned by FindEvaluator for a name the game lacks.
var ErrUnknownEvaluator = errors.New("games: unknown evaluator")

// FindEvaluator returns the game's evaluator of that name, or its default
// evaluator when name is empty.
func FindEvaluator(g Game, name string) (*Evaluator, error) {
	evs := g.Evaluators()
	if name == "" {
		return evs[0], nil
	}
	names := make([]string, len(evs))
	for i, e := range evs {
		if e.Name == name {
			return e, nil
		}
		names[i] = e.Name
	}
	return nil, fmt.Errorf("%w %q for %s: give one of %s (tune games lists them)", ErrUnknownEvaluator, name, g.Name(), strings.Join(names, ", "))
}
