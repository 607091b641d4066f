// Package nim is the matches game: players take turns taking
// matches from one heap; whoever takes the last match loses (misère). Two
// rule sets: the classic one (take 1, 2 or 3) and the doubling variant
// ("double": the first player takes exactly 1, then each player takes from 1
// to twice the opponent's last take).
package nim

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gametune/gametune/games"
)

// Game returns the matches game, registered as "nim".
func Game() games.Game { return definition }

// definition is the game, defined once so that games compare equal.
var definition = games.Define("nim", doc, notation, start, Parse, basicEvaluator)

// DefaultMatches is the heap of the course's example game.
const DefaultMatches = 20

// maxMatches bounds the heap so that a position fits a small state.
const maxMatches = 10000

// Position is a heap of matches and whose turn it is.
type Position struct {
	matches int
	double  bool // the doubling variant
	last    int  // the previous take (double rules; 0 before the first move)
	turn    games.Side
	history []int16 // takes, in order; grows once to the game's length
	start   int
}

// New returns a start position with n matches under the classic rules, or
// the exercise's rules when double is set.
func New(n int, double bool) (*Position, error) {
	if n < 1 || n > maxMatches {
		return nil, fmt.Errorf("nim: %d matches out of range (1-%d)", n, maxMatches)
	}
	return &Position{matches: n, double: double, history: make([]int16, 0, n), start: n}, nil
}

// maxTake is the largest take allowed now.
func (p *Position) maxTake() int {
	t := 3
	if p.double {
		t = 2 * p.last
		if p.last == 0 {
			t = 1
		}
	}
	return min(t, p.matches)
}

// Moves lists the takes 1..max, as Move(k). With no match left, the side to
// move has won: the opponent took the last one.
func (p *Position) Moves(dst []games.Move) ([]games.Move, games.Outcome) {
	dst = dst[:0]
	if p.matches == 0 {
		return dst, games.WinFor(p.turn)
	}
	for k := 1; k <= p.maxTake(); k++ {
		dst = append(dst, games.Move(k))
	}
	return dst, games.Ongoing
}

// Noisy returns no moves.
func (p *Position) Noisy(dst []games.Move) []games.Move { return dst[:0] }

// Play takes m matches.
func (p *Position) Play(m games.Move) {
	p.history = append(p.history, int16(p.last))
	p.matches -= int(m)
	p.last = int(m)
	p.turn = p.turn.Other()
}

// Undo puts the last take back.
func (p *Position) Undo() {
	n := len(p.history) - 1
	p.matches += p.last
	p.last = int(p.history[n])
	p.history = p.history[:n]
	p.turn = p.turn.Other()
}

// Hash identifies the heap, the rules, the side to move and, under the
// double rules where it limits the next take, the last take.
func (p *Position) Hash() uint64 {
	x := uint64(p.matches) | uint64(p.turn)<<32
	if p.double {
		x |= 1<<33 | uint64(p.last)<<16
	}
	return games.Mix(x)
}

func (p *Position) Turn() games.Side { return p.turn }
func (p *Position) Ply() int         { return len(p.history) }
func (p *Position) Matches() int     { return p.matches }

func (p *Position) Clone() games.Position {
	c := *p
	c.history = append(make([]int16, 0, cap(p.history)), p.history...)
	return &c
}

// String writes the position: "20", "17 second", "double:19 last=1 second".
func (p *Position) String() string {
	var b strings.Builder
	if p.double {
		b.WriteString("double:")
	}
	b.WriteString(strconv.Itoa(p.matches))
	if p.double && p.last > 0 {
		fmt.Fprintf(&b, " last=%d", p.last)
	}
	if p.turn == games.Second {
		b.WriteString(" second")
	}
	return b.String()
}

// Draw shows the heap.
func (p *Position) Draw() string {
	return fmt.Sprintf("  %s (%d)\n  %s to move, may take 1 to %d\n",
		strings.Repeat("|", p.matches), p.matches, p.turn, max(p.maxTake(), 0))
}

// FormatMove writes a take as its number of matches.
func (p *Position) FormatMove(m games.Move) string { return strconv.Itoa(int(m)) }

// ParseMove reads a take: a number of matches, optionally "take 3".
func (p *Position) ParseMove(s string) (games.Move, error) {
	t := strings.TrimSpace(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "take"))
	k, err := strconv.Atoi(t)
	if err != nil {
		return 0, fmt.Errorf("nim: move %q is not a number of matches to take", s)
	}
	if p.matches == 0 {
		return 0, fmt.Errorf("nim: the game is over: no match left")
	}
	if k < 1 || k > p.maxTake() {
		return 0, fmt.Errorf("nim: cannot take %d: take 1 to %d", k, p.maxTake())
	}
	return games.Move(k), nil
}

// Parse reads "N" (classic rules, first to move), optionally prefixed with
// "double:" for the exercise rules and followed by "last=K" (the previous
// take, double rules) and "first" or "second" (the side to move).
// Positions that no game reaches are rejected with games.ErrUnreachable:
// under the double rules, second to move before any take or an empty heap
// before any take; and a heap that could only follow a start heap above
// 10000 matches.
func Parse(s string) (*Position, error) {
	fields := strings.Fields(strings.ToLower(s))
	if len(fields) == 0 {
		return nil, fmt.Errorf("nim: empty position (want a number of matches, e.g. 20, double:20, or \"17 last=2 second\")")
	}
	head := fields[0]
	double := strings.HasPrefix(head, "double:")
	head = strings.TrimPrefix(head, "double:")
	head = strings.TrimPrefix(head, "classic:")
	n, err := strconv.Atoi(head)
	if err != nil || n < 0 || n > maxMatches {
		return nil, fmt.Errorf("nim: %q is not a number of matches (0-%d)", head, maxMatches)
	}
	p := &Position{matches: n, double: double, start: n, history: make([]int16, 0, n)}
	for _, f := range fields[1:] {
		switch {
		case f == "first":
			p.turn = games.First
		case f == "second":
			p.turn = games.Second
		case strings.HasPrefix(f, "last="):
			k, err := strconv.Atoi(f[5:])
			if err != nil || k < 1 || k > maxMatches {
				return nil, fmt.Errorf("nim: %q: the last take must be a number of matches (1-%d)", f, maxMatches)
			}
			if !double {
				return nil, fmt.Errorf("nim: %q only applies to the double rules (write double:%d)", f, n)
			}
			p.last = k
		default:
			return nil, fmt.Errorf("nim: unknown field %q (accepted: first, second, last=K)", f)
		}
	}
	if double && p.last == 0 {
		if p.turn == games.Second {
			return nil, games.Unreachable("nim: %q: second to move with no take yet; under the double rules the first side takes first (write last=K for the take just made)", s)
		}
		if n == 0 {
			return nil, games.Unreachable("nim: %q: a game starts with at least 1 match", s)
		}
	}
	if taken := p.fewestTaken(); n+taken > maxMatches {
		return nil, games.Unreachable("nim: %q: reaching it takes at least %d matches from a heap of at least %d, above the largest heap (%d)", s, taken, n+taken, maxMatches)
	}
	return p, nil
}

// fewestTaken returns the fewest matches that the takes leading to p can
// have removed from the start heap. Under the classic rules that is none
// with the first side to move (two when the heap is empty: the game starts
// with a match at least), one with the second. Under the double rules the
// takes before last=K can halve at most at each step back to the first
// take, 1: K, ceil(K/2), ..., 1; one more take of 1 at the start when that
// chain's length does not match the side to move.
func (p *Position) fewestTaken() int {
	if !p.double || p.last == 0 {
		switch {
		case p.turn == games.Second:
			return 1
		case p.matches == 0:
			return 2
		}
		return 0
	}
	sum, takes := p.last, 1
	for t := p.last; t > 1; takes++ {
		t = (t + 1) / 2
		sum += t
	}
	if games.Side(takes%2) != p.turn {
		sum++
	}
	return sum
}

// basicEvaluator is the evaluator of the classic rules: a heap of 4k+1 matches is
// lost for the side to move, any other heap is won.
var basicEvaluator = &games.Evaluator{
	Name: "basic",
	Doc:  "the heap's residue modulo 4 (4k+1 matches lose for the side to move)",
	Features: []games.Feature{
		{Name: "safe", Doc: "+1 when the heap is not 4k+1 matches (the side to move can win), -1 when it is", Default: 1, Min: -2, Max: 2, Step: 0.1},
		{Name: "matches", Doc: "matches left on the heap", Default: 0, Min: -1, Max: 1, Step: 0.1},
	},
	Evaluate: evaluate,
	FeatureValues: func(gp games.Position, dst []float64) {
		safe, matches := basicFeatures(gp.(*Position))
		dst[0], dst[1] = 100*safe, 100*matches
	},
}

func basicFeatures(p *Position) (safe, matches float64) {
	safe = 1
	if p.matches%4 == 1 {
		safe = -1
	}
	return safe, float64(p.matches)
}

func evaluate(gp games.Position, w []float64) int {
	safe, matches := basicFeatures(gp.(*Position))
	return int(math.Round(100 * (w[0]*safe + w[1]*matches)))
}

// doc and notation describe the game in 'tune games'.
const (
	doc      = "the matches game: take 1-3 matches, whoever takes the last loses; double:N for the doubling variant (first take 1, then up to twice the last take)"
	notation = "position: the heap, \"20\" (classic) or \"double:20\" (doubling variant), optionally \"last=K\" and \"first\"/\"second\"; " +
		"move: the number of matches taken, e.g. 3"
)

// start is the course's heap of DefaultMatches.
func start() *Position {
	p, _ := New(DefaultMatches, false)
	return p
}
