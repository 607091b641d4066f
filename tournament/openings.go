package tournament

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
)

// RandomOpeningCount is how many openings RandomOpenings returns at most.
const RandomOpeningCount = 64

// IsRandomOpenings reports whether spec asks for generated openings.
func IsRandomOpenings(spec string) bool { return strings.HasPrefix(spec, "random:") }

// LoadOpenings returns the openings spec names: none for "" or "start"
// (every game from the start), the game's own openings for "default"
// (games.OpeningBook; random:8 for a game without), RandomOpenings' for
// "random:N" (or RandomOpeningMoves' when asMoves), or else a book
// (ParseBook's spec, read by ReadBook with seed).
func LoadOpenings(ctx context.Context, g games.Game, spec string, seed uint64, asMoves bool) ([]string, error) {
	if spec == "default" {
		book, ok := g.(games.OpeningBook)
		if !ok {
			return randomOpenings(ctx, g, "random:8", seed, asMoves)
		}
		out := make([]string, len(book.Openings()))
		for i, line := range book.Openings() {
			op, err := lineOpening(g, line, asMoves)
			if err != nil {
				return nil, fmt.Errorf("tournament: %s's opening %d (%s): %w", g.Name(), i+1, line, err)
			}
			out[i] = op
		}
		return out, nil
	}
	switch {
	case spec == "" || spec == "start":
		return nil, nil
	case IsRandomOpenings(spec):
		return randomOpenings(ctx, g, spec, seed, asMoves)
	}
	b, err := ParseBook(spec)
	if err != nil {
		return nil, err
	}
	return ReadBook(ctx, b, g, seed, asMoves)
}

// maxMatchBatches bounds the batches of random openings LoadMatchOpenings
// draws: 65,536 openings at most, cycled beyond.
const maxMatchBatches = 1024

// LoadMatchOpenings returns the openings of a match or a tournament that
// plays pairs pairs a pairing: LoadOpenings', and when they are generated
// (random:N, or "default" for a game without a book) further batches of
// the stream (RandomOpeningBatch) until there is one for every pair, or
// the game has no more. Two engines that search without randomness play
// the same pair again from the same opening: 400 pairs over the 64
// openings of one batch counted each pair about six times, and the
// interval was about 2.5 times too narrow. Batch 0 comes first, so a match
// of at most 64 pairs plays the openings it always did.
func LoadMatchOpenings(ctx context.Context, g games.Game, spec string, seed uint64, asMoves bool, pairs int) ([]string, error) {
	ops, err := LoadOpenings(ctx, g, spec, seed, asMoves)
	if err != nil {
		return nil, err
	}
	random := spec
	if _, book := g.(games.OpeningBook); spec == "default" && !book {
		random = "random:8"
	}
	if !IsRandomOpenings(random) {
		return ops, nil
	}
	seen := make(map[string]bool, len(ops))
	for _, op := range ops {
		seen[op] = true
	}
	return MoreRandomOpenings(ctx, g, random, seed, asMoves, ops, pairs, func(op string) bool {
		fresh := !seen[op]
		seen[op] = true
		return fresh
	})
}

// MoreRandomOpenings appends to ops the openings of batches 1, 2, ... of
// spec's stream from seed (RandomOpeningBatch, as moves when asMoves) that
// fresh accepts (fresh also notes them as seen), until ops holds want, a
// batch adds none (a small game: every opening is drawn already) or
// maxMatchBatches batches are drawn.
func MoreRandomOpenings(ctx context.Context, g games.Game, spec string, seed uint64, asMoves bool, ops []string, want int, fresh func(op string) bool) ([]string, error) {
	for b := 1; len(ops) < want && b <= maxMatchBatches; b++ {
		batch, err := randomOpeningBatch(ctx, g, spec, seed, b, asMoves)
		if err != nil {
			return nil, err
		}
		added := false
		for _, op := range batch {
			if fresh(op) {
				ops, added = append(ops, op), true
			}
		}
		if !added {
			break
		}
	}
	return ops, nil
}

// RandomOpenings generates openings for spec "random:N": positions N random
// legal plies from the start, drawn from generators seeded from seed and
// each candidate's index, duplicates and finished games dropped. Each
// candidate is scored by a depth-2 search with the game's default
// evaluator; the more balanced half is kept (those within the median
// absolute score), in the order they were drawn. The result depends on
// the game, N and seed alone.
func RandomOpenings(ctx context.Context, g games.Game, spec string, seed uint64) ([]string, error) {
	return randomOpenings(ctx, g, spec, seed, false)
}

// RandomOpeningMoves returns RandomOpenings' openings as the moves that
// lead to them, "moves: m1 m2 ...", the form external engines that cannot
// set up a position (GTP) need.
func RandomOpeningMoves(ctx context.Context, g games.Game, spec string, seed uint64) ([]string, error) {
	return randomOpenings(ctx, g, spec, seed, true)
}

// MaxOpeningBatch bounds RandomOpeningBatch's batch number.
const MaxOpeningBatch = 1 << 20

// RandomOpeningBatch returns batch number batch (0 to MaxOpeningBatch) of
// a long stream of random openings for spec "random:N" drawn from seed:
// batch 0 is RandomOpenings' openings, and each later batch is drawn the
// same way from generators of its own (seeded from seed, batch and each
// candidate's index), so that batch k depends on the game, N, seed and k
// alone and costs what RandomOpenings costs, whatever was drawn before.
// Openings may repeat across batches (a game with few positions N plies
// deep has few openings); a caller wanting distinct ones drops repeats.
func RandomOpeningBatch(ctx context.Context, g games.Game, spec string, seed uint64, batch int) ([]string, error) {
	if batch < 0 || batch > MaxOpeningBatch {
		return nil, fmt.Errorf("tournament: opening batch %d: want 0 to %d", batch, MaxOpeningBatch)
	}
	return randomOpeningBatch(ctx, g, spec, seed, batch, false)
}

// RandomOpeningMoveBatch returns RandomOpeningBatch's openings as the
// moves that lead to them, "moves: m1 m2 ...", the form external engines
// that cannot set up a position (GTP) need.
func RandomOpeningMoveBatch(ctx context.Context, g games.Game, spec string, seed uint64, batch int) ([]string, error) {
	if batch < 0 || batch > MaxOpeningBatch {
		return nil, fmt.Errorf("tournament: opening batch %d: want 0 to %d", batch, MaxOpeningBatch)
	}
	return randomOpeningBatch(ctx, g, spec, seed, batch, true)
}

func randomOpenings(ctx context.Context, g games.Game, spec string, seed uint64, asMoves bool) ([]string, error) {
	return randomOpeningBatch(ctx, g, spec, seed, 0, asMoves)
}

// randomOpeningBatch draws batch number batch of spec's openings: its
// candidate i comes from a generator seeded from seed and batch<<32 + i
// (batch 0's are RandomOpenings' generators).
func randomOpeningBatch(ctx context.Context, g games.Game, spec string, seed uint64, batch int, asMoves bool) ([]string, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(spec, "random:"))
	if !IsRandomOpenings(spec) || err != nil || n < 0 || n > 60 {
		return nil, fmt.Errorf("tournament: openings %q: want random:N with N from 0 to 60 plies", spec)
	}
	if n == 0 {
		if asMoves {
			return []string{"moves:"}, nil
		}
		return []string{g.Start().String()}, nil
	}
	s, err := engine.New(engine.Options{TableMiB: 1, NoExact: true})
	if err != nil {
		return nil, err
	}
	ev := g.Evaluators()[0]
	w := ev.Defaults()
	var cands []opening
	seen := map[string]bool{}
	for i := 0; i < 20*RandomOpeningCount && len(cands) < 2*RandomOpeningCount; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rng := rand.New(rand.NewPCG(seed, (uint64(batch)<<32|uint64(i))^0x6f70656e696e67))
		p, path, ok := randomWalk(g, rng, n)
		if !ok {
			continue
		}
		key := p.String()
		if seen[key] {
			continue
		}
		seen[key] = true
		q, err := g.ParsePosition(key)
		if err != nil {
			return nil, fmt.Errorf("tournament: generated opening %q does not read back: %w", key, err)
		}
		s.NewGame()
		res, err := s.Search(ctx, q, ev, w, engine.Limits{Depth: 2})
		if err != nil {
			return nil, err
		}
		cands = append(cands, opening{key, "moves: " + strings.Join(path, " "), abs(res.Score)})
	}
	if len(cands) == 0 {
		return nil, fmt.Errorf("tournament: no game of %s lasts %d plies: choose fewer", g.Name(), n)
	}
	return balanced(cands, asMoves), nil
}

// opening is a drawn opening: its position, the moves to it, and the
// absolute score a shallow search gives it.
type opening struct {
	pos   string
	path  string
	score int
}

// randomWalk plays n random legal plies from the start and returns the
// position and the moves played, or false when the game ends on the way
// or at the end.
func randomWalk(g games.Game, rng *rand.Rand, n int) (games.Position, []string, bool) {
	p := g.Start()
	var path []string
	for ply := 0; ply < n; ply++ {
		moves, outcome := p.Moves(nil)
		if outcome != games.Ongoing {
			return nil, nil, false
		}
		m := moves[rng.IntN(len(moves))]
		path = append(path, p.FormatMove(m))
		p.Play(m)
	}
	if _, outcome := p.Moves(nil); outcome != games.Ongoing {
		return nil, nil, false
	}
	return p, path, true
}

// balanced keeps the more balanced half of the openings (those within
// the median absolute score), at most RandomOpeningCount, in their order:
// their positions, or the moves to them when asMoves.
func balanced(cands []opening, asMoves bool) []string {
	scores := make([]int, len(cands))
	for i, c := range cands {
		scores[i] = c.score
	}
	sort.Ints(scores)
	margin := scores[(len(scores)-1)/2]
	var out []string
	for _, c := range cands {
		if c.score <= margin && len(out) < RandomOpeningCount {
			if asMoves {
				c.pos = c.path
			}
			out = append(out, c.pos)
		}
	}
	return out
}

// ParseOpening reads one opening: a position in the game's notation, or
// "moves: m1 m2 ..." for a move sequence from the start, and returns the
// position in the game's notation. An opening whose game is over (or a
// move played after the game ended) is refused: it leaves no game to play.
func ParseOpening(g games.Game, text string) (string, error) {
	p, _, err := readOpening(g, text)
	if err != nil {
		return "", err
	}
	return p.String(), nil
}

// readOpening is ParseOpening's position, with the moves of a move line in
// the game's notation (nil for a position).
func readOpening(g games.Game, text string) (games.Position, []string, error) {
	var p games.Position
	var moves []string
	if rest, ok := strings.CutPrefix(text, "moves:"); ok {
		p, moves = g.Start(), []string{}
		for i, mv := range strings.Fields(rest) {
			if _, outcome := p.Moves(nil); outcome != games.Ongoing {
				return nil, nil, fmt.Errorf("move %d (%s): the game is already over (%s)", i+1, mv, outcome)
			}
			m, err := p.ParseMove(mv)
			if err != nil {
				return nil, nil, err
			}
			moves = append(moves, p.FormatMove(m))
			p.Play(m)
		}
	} else {
		var err error
		if p, err = g.ParsePosition(text); err != nil {
			return nil, nil, err
		}
	}
	if _, outcome := p.Moves(nil); outcome != games.Ongoing {
		return nil, nil, fmt.Errorf("the game is already over in this opening (%s)", outcome)
	}
	return p, moves, nil
}
