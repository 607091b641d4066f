package learn

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
)

// Default lengths of the random openings of self-play games, in plies.
const (
	DefaultMinOpening = 4
	DefaultMaxOpening = 14
	// maxOpeningTries bounds the draws of one game's opening: a walk that
	// ends the game, or reaches a position played already, is drawn again.
	maxOpeningTries = 64
)

// SelfPlayOptions configure SelfPlay. The zero value plays no game.
type SelfPlayOptions struct {
	// Games is the number of games to play.
	Games int
	// Seed and First draw the games: game i (counted from First, so that
	// the rounds of a run, each starting where the last stopped, draw fresh
	// games) has its opening and its spec's seed from Seed and First+i
	// alone.
	Seed  uint64
	First int
	// MinOpening and MaxOpening bound the random plies each game opens
	// with (drawn uniformly between them); 0 means DefaultMinOpening and
	// DefaultMaxOpening.
	MinOpening, MaxOpening int
	// MaxPlies is the ply cap of a game (0: the tournament's, 400).
	MaxPlies int
	// Seen holds the hashes of the positions self-play games were opened
	// from already; SelfPlay adds its own and opens no two games from the
	// same position while a fresh one can be drawn (the engines are
	// deterministic: the same opening plays the same game). Nil: a map of
	// its own for this call.
	Seen map[uint64]bool
	// Played, if not nil, is called after each game is recorded, in game
	// order, with the number of games recorded so far.
	Played func(n int)
}

// SelfPlay plays opts.Games games of p against itself (both sides the same
// evaluator, weights and limits) on run (a tournament.Pool, or the
// cluster's runner) and returns them as Games, in game order whatever the
// number of workers.
//
// The variety comes from the openings, which are all the randomness there
// is: game i opens with a random number of plies (MinOpening to
// MaxOpening) of random legal moves, from a generator seeded by Seed and
// its index, and the engines play on from there. The openings are not
// balanced: an unbalanced start still labels its positions truly.
//
// Where a game can be solved (games.Exact: Othello's engine searches to
// the end at othello.ExactEmpties, 12, empty squares or fewer), both sides
// play perfectly from the first such position on, so a game's result is
// the exact value (win, draw or loss) of that position: the positions of
// its last 12 empty squares carry exact labels, the ones before them the
// result of play at the player's strength.
func SelfPlay(ctx context.Context, run tournament.Runner, g games.Game, p tournament.Player, opts SelfPlayOptions) ([]Game, error) {
	if opts.Games < 0 || opts.First < 0 {
		return nil, fmt.Errorf("learn: self-play of %d games from game %d: want 0 or more", opts.Games, opts.First)
	}
	lo, hi, err := openingRange(opts)
	if err != nil {
		return nil, err
	}
	seen := opts.Seen
	if seen == nil {
		seen = map[uint64]bool{}
	}
	specs := make([]tournament.GameSpec, opts.Games)
	openings := make([][]games.Move, opts.Games)
	for i := range specs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		index := uint64(opts.First + i)
		rng := rand.New(rand.NewPCG(opts.Seed, index^0x73656c66706c6179))
		pos, moves, err := drawOpening(g, rng, lo, hi, seen)
		if err != nil {
			return nil, fmt.Errorf("learn: self-play game %d: %w", opts.First+i, err)
		}
		openings[i] = moves
		specs[i] = tournament.GameSpec{Game: g, Opening: pos.String(), First: p, Second: p,
			Seed: rng.Uint64(), MaxPlies: opts.MaxPlies}
	}
	out := make([]Game, opts.Games)
	err = run.Run(ctx, specs, func(i int, r tournament.Record) error {
		game, err := recordGame(g, openings[i], r)
		if err != nil {
			return fmt.Errorf("learn: self-play game %d: %w", opts.First+i, err)
		}
		out[i] = game
		if opts.Played != nil {
			opts.Played(i + 1)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// openingRange checks the opening lengths and applies their defaults.
func openingRange(opts SelfPlayOptions) (lo, hi int, err error) {
	lo, hi = opts.MinOpening, opts.MaxOpening
	if lo == 0 && hi == 0 {
		lo, hi = DefaultMinOpening, DefaultMaxOpening
	}
	if lo < 0 || hi < lo || hi > 60 {
		return 0, 0, fmt.Errorf("learn: openings of %d to %d plies: want 0 <= min <= max <= 60", lo, hi)
	}
	return lo, hi, nil
}

// drawOpening walks a random number of random plies (lo to hi) from the
// start, again while the walk ends the game or reaches a position in seen
// (the last try's position is kept even when seen), and notes the position
// in seen.
func drawOpening(g games.Game, rng *rand.Rand, lo, hi int, seen map[uint64]bool) (games.Position, []games.Move, error) {
	for try := 0; ; try++ {
		n := lo + rng.IntN(hi-lo+1)
		p, moves, ok := walk(g, rng, n)
		if ok && (!seen[p.Hash()] || try >= maxOpeningTries) {
			seen[p.Hash()] = true
			return p, moves, nil
		}
		if try >= maxOpeningTries {
			return nil, nil, fmt.Errorf("no game of %s lasts %d plies: choose shorter openings", g.Name(), n)
		}
	}
}

// walk plays n random legal plies from the start; false when the game
// ends on the way or at the end.
func walk(g games.Game, rng *rand.Rand, n int) (games.Position, []games.Move, bool) {
	p := g.Start()
	moves := make([]games.Move, 0, n)
	var legal []games.Move
	for {
		var out games.Outcome
		legal, out = p.Moves(legal[:0])
		if out != games.Ongoing {
			return nil, nil, false
		}
		if len(moves) == n {
			return p, moves, true
		}
		m := legal[rng.IntN(len(legal))]
		p.Play(m)
		moves = append(moves, m)
	}
}

// recordGame turns a self-play record into a Game: the opening's moves,
// then the record's, read from the position the opening reaches; the
// result is the first player's score; the scores are the movers' words
// (Record.Evals: NoScore for the opening's plies and for a move without
// a score), none when no move has one (games played on the cluster's
// workers).
func recordGame(g games.Game, opening []games.Move, r tournament.Record) (Game, error) {
	if r.Reason == tournament.ByInterruption {
		return Game{}, fmt.Errorf("the game was interrupted")
	}
	p := g.Start()
	moves := make([]games.Move, 0, len(opening)+len(r.Moves))
	for _, m := range opening {
		p.Play(m)
		moves = append(moves, m)
	}
	if s := p.String(); s != r.Opening {
		return Game{}, fmt.Errorf("the record opens from %q, not from the drawn opening %q", r.Opening, s)
	}
	for ply, text := range r.Moves {
		m, err := tournament.ParseLegal(p, text)
		if err != nil {
			return Game{}, fmt.Errorf("move %d (%s): %w", len(opening)+ply+1, text, err)
		}
		p.Play(m)
		moves = append(moves, m)
	}
	return Game{Moves: moves, Result: r.Score(), Scores: recordScores(len(opening), r)}, nil
}

// recordScores is recordGame's scores: nil when no move of r has one.
func recordScores(opening int, r tournament.Record) []int32 {
	var scores []int32
	for ply, e := range r.Evals {
		if !e.Scored || ply >= len(r.Moves) {
			continue
		}
		if scores == nil {
			scores = make([]int32, opening+len(r.Moves))
			for i := range scores {
				scores[i] = NoScore
			}
		}
		scores[opening+ply] = int32(max(-MaxScore, min(MaxScore, e.Score)))
	}
	return scores
}
