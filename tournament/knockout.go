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
	if opts.BestOf == 0 {
		opts.BestOf = 5
	}
	if opts.Ties == "" {
		opts.Ties = "random"
	}
	if opts.MaxExtraPairs == 0 {
		opts.MaxExtraPairs = 4
	}
	if opts.BestOf < 1 || (opts.Ties != "random" && opts.Ties != "extra") {
		return 0, nil, fmt.Errorf("tournament: bracket best-of %d, ties %q (want best-of >= 1, ties random or extra)", opts.BestOf, opts.Ties)
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
		next := make([]int, len(alive)/2)
		var live []BracketMatch
		var slot []int
		for m := range next {
			a, b := alive[2*m], alive[2*m+1]
			switch {
			case a == Bye && b == Bye:
				next[m] = Bye
			case a == Bye || b == Bye:
				w := max(a, b)
				next[m] = w
				matches = append(matches, BracketMatch{Round: round, A: w, B: Bye, Winner: w})
			default:
				live = append(live, BracketMatch{Round: round, A: a, B: b})
				slot = append(slot, m)
			}
		}
		var batch []BracketGame
		add := func(l, game int) {
			batch = append(batch, BracketGame{Round: round, Match: slot[l], Game: game,
				A: live[l].A, B: live[l].B, Swap: game%2 == 1, Index: round<<20 | slot[l]<<10 | game})
		}
		playBatch := func() error {
			if len(batch) == 0 {
				return nil
			}
			scores, err := play(ctx, batch)
			if err != nil {
				return err
			}
			for i, g := range batch {
				for l := range live {
					if slot[l] == g.Match {
						live[l].ScoreA += scores[i]
						live[l].ScoreB += 1 - scores[i]
						live[l].Games++
					}
				}
			}
			batch = batch[:0]
			return nil
		}
		for l := range live {
			for g := 0; g < opts.BestOf; g++ {
				add(l, g)
			}
		}
		if err := playBatch(); err != nil {
			return 0, nil, err
		}
		for extra := 0; ; extra++ {
			var tied []int
			for l := range live {
				if live[l].ScoreA == live[l].ScoreB {
					tied = append(tied, l)
				}
			}
			if len(tied) == 0 {
				break
			}
			if opts.Ties == "random" || extra >= opts.MaxExtraPairs {
				for _, l := range tied {
					rng := rand.New(rand.NewPCG(opts.Seed, uint64(round<<20|slot[l]<<10)^0x746965))
					live[l].Winner = live[l].A
					if rng.IntN(2) == 1 {
						live[l].Winner = live[l].B
					}
					live[l].TieBreak = "random"
				}
				break
			}
			for _, l := range tied {
				first := live[l].Games + live[l].Games%2 // start a fresh pair
				add(l, first)
				add(l, first+1)
				live[l].TieBreak = "extra"
			}
			if err := playBatch(); err != nil {
				return 0, nil, err
			}
		}
		for l := range live {
			if live[l].TieBreak != "random" {
				live[l].Winner = live[l].A
				if live[l].ScoreB > live[l].ScoreA {
					live[l].Winner = live[l].B
				}
			}
			next[slot[l]] = live[l].Winner
			matches = append(matches, live[l])
		}
		alive = next
	}
	return alive[0], matches, nil
}
