package learn

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
)

// positions is a run of positions in a fit's sparse form: for each, the
// table entries it activates, its nonzero scalar feature values and its
// label. In the cache (perTerm false) an entry's multiplier w[Feature]*Coef
// is the entry's own (fitter.entryMult), so a position costs 4 bytes per
// entry, 6 per nonzero scalar and 12 more (two ends and the label): 208
// bytes for Othello's patterns (46 entries, 2 scalars). A worker's replay
// buffer (perTerm true) keeps each term's multiplier too.
type positions struct {
	perTerm    bool
	entries    []int32
	mults      []float32
	termEnd    []uint32
	scalarFeat []uint16
	scalarVal  []float32
	scalarEnd  []uint32
	labels     []float32
}

func (st *positions) len() int { return len(st.labels) }

func (st *positions) reset() {
	st.entries, st.mults, st.termEnd = st.entries[:0], st.mults[:0], st.termEnd[:0]
	st.scalarFeat, st.scalarVal, st.scalarEnd = st.scalarFeat[:0], st.scalarVal[:0], st.scalarEnd[:0]
	st.labels = st.labels[:0]
}

// spans returns where position i's entries and scalars lie.
func (st *positions) spans(i int) (lo, hi, slo, shi int) {
	if i > 0 {
		lo, slo = int(st.termEnd[i-1]), int(st.scalarEnd[i-1])
	}
	return lo, int(st.termEnd[i]), slo, int(st.scalarEnd[i])
}

func (st *positions) end(label float64) error {
	if len(st.entries) > math.MaxUint32 || len(st.scalarFeat) > math.MaxUint32 {
		return fmt.Errorf("learn: too many table terms in one run of positions (at most 2^32)")
	}
	st.termEnd = append(st.termEnd, uint32(len(st.entries)))
	st.scalarEnd = append(st.scalarEnd, uint32(len(st.scalarFeat)))
	st.labels = append(st.labels, float32(label))
	return nil
}

// compact gives st's slices their exact lengths, so that the cache holds
// no room for growth.
func (st *positions) compact() {
	st.entries = slices.Clone(st.entries)
	st.termEnd = slices.Clone(st.termEnd)
	st.scalarFeat = slices.Clone(st.scalarFeat)
	st.scalarVal = slices.Clone(st.scalarVal)
	st.scalarEnd = slices.Clone(st.scalarEnd)
	st.labels = slices.Clone(st.labels)
}

func (st *positions) bytes() int64 {
	return int64(4*cap(st.entries) + 4*cap(st.mults) + 4*cap(st.termEnd) + 2*cap(st.scalarFeat) +
		4*cap(st.scalarVal) + 4*cap(st.scalarEnd) + 4*cap(st.labels))
}

// cache is the positions of some games held in memory: segments of
// consecutive games, each built by one worker, in the games' order.
type cache struct {
	segs   []*positions
	starts []int // starts[s] is the index of segment s's first position
	n      int
}

func (c *cache) add(st *positions) {
	c.segs = append(c.segs, st)
	c.starts = append(c.starts, c.n)
	c.n += st.len()
}

// at finds position g of the cache.
func (c *cache) at(g int) (*positions, int) {
	s := sort.Search(len(c.starts), func(s int) bool { return c.starts[s] > g }) - 1
	return c.segs[s], g - c.starts[s]
}

func (c *cache) bytes() int64 {
	var n int64
	for _, st := range c.segs {
		n += st.bytes()
	}
	return n
}

// replay appends the positions of game gi to st, skipping forced passes,
// each position replaced by its quiescence leaf (quietLeaf), its label
// blended with its score once scoreK is known (Set.Lambda).
func (f *fitter) replay(wk *fitWorker, gi int, st *positions) error {
	return f.set.Each(gi, gi+1, func(p games.Position, label, score float64) error {
		if ps, ok := p.(games.Passer); ok {
			if _, forced := ps.ForcedPass(); forced {
				return nil
			}
		}
		leaf, err := wk.quietLeaf(f, p)
		if err != nil {
			return err
		}
		turn := p.Turn()
		for _, m := range leaf {
			p.Play(m)
		}
		if p.Turn() != turn {
			label, score = 1-label, -score // the leaf's side to move is the other side
		}
		if f.scoreK > 0 && score == score {
			label = (1-f.set.Lambda)*label + f.set.Lambda*sigmoid(f.scoreK*score)
		}
		err = f.add(wk, p, label, st)
		for range leaf {
			p.Undo()
		}
		return err
	})
}

// quietLeaf is the line from p to the position whose evaluation the
// engine's quiescence search backs up (engine.Searcher.QuietLeaf, with the
// fit's starting evaluator and weights): none where p is quiet, else the
// captures (chess, checkers) that settle it. A position in the middle of
// an exchange is labelled by the game's result but evaluated, by the
// engine, only once the exchange is over; Texel's method fits the
// evaluation where the engine uses it. Games without noisy moves (Othello)
// keep every position.
func (wk *fitWorker) quietLeaf(f *fitter, p games.Position) ([]games.Move, error) {
	if wk.noisy = p.Noisy(wk.noisy[:0]); len(wk.noisy) == 0 {
		return nil, nil // quiet: no search needed (every Othello position)
	}
	if wk.quiet == nil {
		s, err := engine.New(engine.Options{TableMiB: 1})
		if err != nil {
			return nil, err
		}
		wk.quiet = s
	}
	wk.leaf, _ = wk.quiet.QuietLeaf(p, f.ev, f.startW, wk.leaf[:0])
	return wk.leaf, nil
}

// add appends position p's terms, scalars and label to st.
func (f *fitter) add(wk *fitWorker, p games.Position, label float64, st *positions) error {
	if f.ev.Terms != nil {
		wk.terms = f.ev.Terms(p, wk.terms[:0])
	}
	for _, t := range wk.terms {
		if t.Entry < 0 || int(t.Entry) >= len(f.data) || t.Feature < 0 || int(t.Feature) >= len(f.w) {
			return fmt.Errorf("learn: evaluator %q gave a term of entry %d, feature %d (entries 0-%d, features 0-%d)",
				f.ev.Name, t.Entry, t.Feature, len(f.data)-1, len(f.w)-1)
		}
		m := float32(f.w[t.Feature] * float64(t.Coef))
		st.entries = append(st.entries, t.Entry)
		if st.perTerm {
			st.mults = append(st.mults, m)
		} else {
			wk.noteMult(t.Entry, m)
		}
	}
	if len(f.scalars) > 0 {
		f.ev.FeatureValues(p, wk.values)
		for _, i := range f.scalars {
			if v := wk.values[i]; v != 0 {
				st.scalarFeat = append(st.scalarFeat, uint16(i))
				st.scalarVal = append(st.scalarVal, float32(v))
			}
		}
	}
	return st.end(label)
}

var unseen = float32(math.NaN())

// noteMult records entry e's multiplier, and whether it ever differs.
func (wk *fitWorker) noteMult(e int32, m float32) {
	old := wk.entryMult[e]
	if old != old { // NaN: first sighting
		wk.entryMult[e] = m
	} else if old != m {
		wk.mixed = true
	}
}

// eval is position i's evaluation before rounding.
func (f *fitter) eval(st *positions, i int) float64 { return f.evalWith(st, i, f.w) }

// evalWith is position i's evaluation with the fit's tables and the
// weights w.
func (f *fitter) evalWith(st *positions, i int, w []float64) float64 {
	lo, hi, slo, shi := st.spans(i)
	e := 0.0
	if st.perTerm {
		ms := st.mults[lo:hi]
		for j, x := range st.entries[lo:hi] {
			e += float64(ms[j]) * float64(f.data[x])
		}
	} else {
		for _, x := range st.entries[lo:hi] {
			e += float64(f.entryMult[x]) * float64(f.data[x])
		}
	}
	for j := slo; j < shi; j++ {
		e += w[st.scalarFeat[j]] * float64(st.scalarVal[j])
	}
	return e
}

const segmentGames = 512

// estimate replays a few games to tell the bytes per cached position and
// the positions of the whole set.
func (f *fitter) estimate() (perPosition float64, total int64, err error) {
	st := &positions{perTerm: true}
	moves := 0
	for gi := 0; gi < len(f.set.Games) && gi < 16; gi++ {
		if err := f.replay(f.workers[0], gi, st); err != nil {
			return 0, 0, err
		}
		moves += max(len(f.set.Games[gi].Moves), 1)
	}
	if st.len() == 0 {
		return 12, 0, nil
	}
	n := float64(st.len())
	perPosition = 4*float64(len(st.entries))/n + 6*float64(len(st.scalarFeat))/n + 12
	all := 0
	for _, g := range f.set.Games {
		all += max(len(g.Moves), 1)
	}
	return perPosition, int64(float64(all) * n / float64(moves)), nil
}

// buildCache replays every game into the cache, on all workers, segment by
// segment, and reports false when the entries' multipliers are not each
// entry's own (then the fit replays the games each epoch).
func (f *fitter) buildCache(ctx context.Context) (bool, error) {
	for _, wk := range f.workers {
		wk.entryMult = make([]float32, len(f.data))
		for i := range wk.entryMult {
			wk.entryMult[i] = unseen
		}
	}
	nseg := (len(f.set.Games) + segmentGames - 1) / segmentGames
	train, held := make([]*positions, nseg), make([]*positions, nseg)
	err := f.parallel(ctx, nseg, func(wk *fitWorker, s int) error {
		train[s], held[s] = &positions{}, &positions{}
		for gi := s * segmentGames; gi < min((s+1)*segmentGames, len(f.set.Games)); gi++ {
			st := train[s]
			if f.isHeldOut(gi) {
				st = held[s]
			}
			if err := f.replay(wk, gi, st); err != nil {
				return err
			}
		}
		train[s].compact()
		held[s].compact()
		return nil
	})
	if err != nil {
		return false, err
	}
	f.entryMult = make([]float32, len(f.data))
	copy(f.entryMult, f.workers[0].entryMult)
	mixed := false
	for _, wk := range f.workers {
		mixed = mixed || wk.mixed
		for e, m := range wk.entryMult {
			if old := f.entryMult[e]; m == m && old != m {
				mixed = mixed || old == old
				f.entryMult[e] = m
			}
		}
		wk.entryMult = nil
	}
	if mixed {
		f.entryMult = nil
		return false, nil
	}
	for s := range nseg {
		f.train.add(train[s])
		f.held.add(held[s])
	}
	return true, nil
}

func (f *fitter) isHeldOut(gi int) bool { return IsHeldOut(f.opts.Seed, f.opts.HeldOut, gi) }

// IsHeldOut is the one held-out rule of every fit (tune learn's and the
// Texel tuner's): it tells whether game gi of a Set is held out of a fit
// of the seed holding out the share of its games, by a hash of the seed
// and gi. The unit is the game, not the position: a game's positions are
// alike (one result labels them all), so a game split between training
// and held-out positions would let the held-out loss reward memorising it.
// A game keeps its side as the Set grows, for a fixed seed.
func IsHeldOut(seed uint64, share float64, gi int) bool {
	if share <= 0 {
		return false
	}
	x := seed ^ (uint64(gi)+1)*0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11)/(1<<53) < share
}
