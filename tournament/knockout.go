package tournament

import (
	"context"
	"fmt"
	"math/rand/v2"
)

// Bye marks the missing opponent of a bracket match. It is -2, not -1, so
// that it never collides with a tuner's id -1 for the default weights
// (and run stores written before it replaced population.ByeID read the
// same).
const Bye = -2

// BracketOptions configure a knockout bracket. BestOf 0 means 5; Ties ""
// means "random"; MaxExtraPairs 0 means 4.
type BracketOptions struct {
	BestOf int // games per match, colours alternating (one opening per pair)
	// Ties says how a tied match is decided: "random" (a seeded coin, as
	// the checkers report did) or "extra" (extra colour-swapped pairs until
	// one side leads, at most MaxExtraPairs, then the coin).
	Ties          string
	MaxExtraPairs int
	Seed          uint64 // seeds the coin of tied matches
}

// BracketGame is one game a bracket asks for: entrants A and B (indices),
// with B moving first when Swap is set. Index identifies the game within
// the bracket (round, match, game number), so that its opening and seed can
// derive from it.
type BracketGame struct {
	Round, Match, Game int
	A, B               int
	Swap               bool
	Index              int
}

// Pair is the number of the colour-swapped pair the game belongs to.
func (g BracketGame) Pair() int { return g.Game / 2 }

// BracketMatch is one encounter of a bracket, with entrant indices.
type BracketMatch struct {
	Round          int
	A, B           int // B is Bye when A advanced without playing
	ScoreA, ScoreB float64
	Games          int
	Winner         int
	TieBreak       string // "", "random" or "extra"
}

// PlayFunc plays a batch of bracket games and returns A's points (1, 0.5 or
// 0) in each, in order.
type PlayFunc func(ctx context.Context, batch []BracketGame) ([]float64, error)

// SeedOrder returns the bracket slots of seeds 0..size-1 (size a power of
// two) so that the first seeds meet last and byes go to them: 0,3,1,2 for
// four; 0,7,3,4,1,6,2,5 for eight.
func SeedOrder(size int) []int {
	order := []int{0}
	for n := 1; n < size; n *= 2 {
		next := make([]int, 0, 2*n)
		for _, s := range order {
			next = append(next, s, 2*n-1-s)
		}
		order = next
	}
	return order
}

// Knockout plays a single-elimination bracket between n entrants seeded in
// index order (padded to a power of two, byes to the first seeds), every
// match of a bracket round in one batch, and returns the winner and every
// match. The result depends on the entrants, the options and the games'
// results alone.
func Knockout(ctx context.Context, n int, opts BracketOptions, play PlayFunc) (int, []BracketMatch, error) {
	if n < 1 {
		return 0, nil, fmt.Errorf("tournament: a bracket needs at least one entrant")
	}
	opts, err := opts.withDefaults()
	if err != nil {
		return 0, nil, err
	}
	size := 1
	for size < n {
		size *= 2
	}
	alive := make([]int, size)
	for i, s := range SeedOrder(size) {
		alive[i] = Bye
		if s < n {
			alive[i] = s
		}
	}
	var matches []BracketMatch
	for round := 0; len(alive) > 1; round++ {
		r := newBracketRound(round, alive)
		matches = append(matches, r.byes...)
		if err := r.play(ctx, opts, play); err != nil {
			return 0, nil, err
		}
		for l := range r.live {
			r.next[r.slot[l]] = r.live[l].Winner
		}
		matches = append(matches, r.live...)
		alive = r.next
	}
	return alive[0], matches, nil
}

// withDefaults fills in the defaults of the zero values and checks the
// options.
func (o BracketOptions) withDefaults() (BracketOptions, error) {
	if o.BestOf == 0 {
		o.BestOf = 5
	}
	if o.Ties == "" {
		o.Ties = "random"
	}
	if o.MaxExtraPairs == 0 {
		o.MaxExtraPairs = 4
	}
	return o, o.Check()
}

// Check says what is wrong with options given explicitly: BestOf below 1,
// or Ties other than "random" or "extra".
func (o BracketOptions) Check() error {
	if o.BestOf < 1 || (o.Ties != "random" && o.Ties != "extra") {
		return fmt.Errorf("tournament: bracket best-of %d, ties %q (want best-of >= 1, ties random or extra)", o.BestOf, o.Ties)
	}
	return nil
}

// bracketRound is one round of a bracket: the matches to play (live, each
// in its slot of the next round), the byes, and the games of the batch
// being gathered.
type bracketRound struct {
	round int
	next  []int // the entrants of the next round, by slot
	byes  []BracketMatch
	live  []BracketMatch
	slot  []int // the slot of each live match
	batch []BracketGame
}

// newBracketRound pairs the entrants alive two by two: a pair with one
// bye sends the other on, a pair of byes a bye.
func newBracketRound(round int, alive []int) *bracketRound {
	r := &bracketRound{round: round, next: make([]int, len(alive)/2)}
	for m := range r.next {
		a, b := alive[2*m], alive[2*m+1]
		switch {
		case a == Bye && b == Bye:
			r.next[m] = Bye
		case a == Bye || b == Bye:
			w := max(a, b)
			r.next[m] = w
			r.byes = append(r.byes, BracketMatch{Round: round, A: w, B: Bye, Winner: w})
		default:
			r.live = append(r.live, BracketMatch{Round: round, A: a, B: b})
			r.slot = append(r.slot, m)
		}
	}
	return r
}

// play plays the round's matches: BestOf games each, then the tied ones
// decided as opts.Ties says, and sets every match's winner.
func (r *bracketRound) play(ctx context.Context, opts BracketOptions, play PlayFunc) error {
	for l := range r.live {
		for g := 0; g < opts.BestOf; g++ {
			r.add(l, g)
		}
	}
	if err := r.playBatch(ctx, play); err != nil {
		return err
	}
	for extra := 0; ; extra++ {
		tied := r.tied()
		if len(tied) == 0 {
			break
		}
		if opts.Ties == "random" || extra >= opts.MaxExtraPairs {
			r.toss(tied, opts.Seed)
			break
		}
		for _, l := range tied {
			first := r.live[l].Games + r.live[l].Games%2 // start a fresh pair
			r.add(l, first)
			r.add(l, first+1)
			r.live[l].TieBreak = "extra"
		}
		if err := r.playBatch(ctx, play); err != nil {
			return err
		}
	}
	for l := range r.live {
		if m := &r.live[l]; m.TieBreak != "random" {
			m.Winner = m.A
			if m.ScoreB > m.ScoreA {
				m.Winner = m.B
			}
		}
	}
	return nil
}

// add adds game number game of live match l to the batch.
func (r *bracketRound) add(l, game int) {
	r.batch = append(r.batch, BracketGame{Round: r.round, Match: r.slot[l], Game: game,
		A: r.live[l].A, B: r.live[l].B, Swap: game%2 == 1, Index: r.round<<20 | r.slot[l]<<10 | game})
}

// playBatch plays the batch and counts its scores in the matches.
func (r *bracketRound) playBatch(ctx context.Context, play PlayFunc) error {
	if len(r.batch) == 0 {
		return nil
	}
	scores, err := play(ctx, r.batch)
	if err != nil {
		return err
	}
	for i, g := range r.batch {
		for l := range r.live {
			if r.slot[l] == g.Match {
				r.live[l].ScoreA += scores[i]
				r.live[l].ScoreB += 1 - scores[i]
				r.live[l].Games++
			}
		}
	}
	r.batch = r.batch[:0]
	return nil
}

// tied lists the live matches whose scores are level.
func (r *bracketRound) tied() []int {
	var out []int
	for l := range r.live {
		if r.live[l].ScoreA == r.live[l].ScoreB {
			out = append(out, l)
		}
	}
	return out
}

// toss decides tied matches by a coin seeded from seed and the match's
// place in the bracket.
func (r *bracketRound) toss(tied []int, seed uint64) {
	for _, l := range tied {
		rng := rand.New(rand.NewPCG(seed, uint64(r.round<<20|r.slot[l]<<10)^0x746965))
		r.live[l].Winner = r.live[l].A
		if rng.IntN(2) == 1 {
			r.live[l].Winner = r.live[l].B
		}
		r.live[l].TieBreak = "random"
	}
}
