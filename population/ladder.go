package population

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
)

// ChampionLabel names the champion of the generation of (0-based) index
// gen on ladders and in exports: g1 for the first generation, as every
// display counts generations from 1. Runs made before this numbering keep
// their stored labels (g0 for the first).
func ChampionLabel(gen int) string { return "g" + strconv.Itoa(gen+1) }

// StageLadder names the games of a run's ladder.
const StageLadder = "ladder"

// StartID stands for a run's start weights in game results and ladders
// (DefaultsID for the evaluator's defaults, tournament.Bye = -2 for byes).
const StartID = -3

// RandomStartID stands for a random start (--start random) in ladders: it
// is rated, to show how far tuning came from it, but it is not the
// reference, since tuning from a random draw must beat the defaults.
const RandomStartID = -4

// MaxLadderChampions bounds the champions a ladder rates: beyond it, evenly
// spaced ones are kept (the first and the last always), so that the ladder's
// round robin stays a few dozen pairings.
const MaxLadderChampions = 12

// ErrLadderTooShort is returned by Ladder for a run with fewer than two
// finished generations: there is nothing to compare yet.
var ErrLadderTooShort = errors.New("population: a ladder needs at least two finished generations")

// LadderEntry is one player of a ladder: a generation's champion, the start
// weights or the evaluator's defaults, with its rating. Weights that were
// champion of several generations make one entry, of the last of them.
type LadderEntry struct {
	Label      string // "defaults", "start" or "g12" (the champion of generation 12)
	Genome     int    // genome id; DefaultsID or StartID
	Generation int    // the (last) generation it was champion of; -1 for the defaults and the start
	Spent      int    // the run's games up to the end of that generation (0 for the defaults and the start)
	Weights    []float64
	stats.WDL  // its games in the ladder
	// Elo with its 95% interval, the defaults being 0.
	Elo, Low, High float64
}

// Ladder rates a run's champions, its start and the evaluator's defaults
// in one pool, from a round robin among them on openings the run never
// used.
type Ladder struct {
	Pairs   int           // colour-swapped pairs per pairing
	Entries []LadderEntry // defaults first, then the start, then champions by generation
	DrawElo float64       // the rating model's fitted draw margin
	// Reference is the entry tuning must beat: the start when the run had
	// start weights, else the defaults. Best is the entry rated highest;
	// BestLow and BestHigh bound its rating minus the reference's, 95%
	// family-wise over the champions rated (see widen).
	Reference, Best   int
	BestLow, BestHigh float64
}

// Confident reports whether the best entry beats the reference with 95%
// confidence.
func (l *Ladder) Confident() bool { return l.Best != l.Reference && l.BestLow > 0 }

// ladderPlayers lists the ladder's players from a run's history: the
// defaults, the start (when it differs from the defaults; a random start
// only when no champion has its weights, as generation 0's of SPSA may),
// and the champions, each weight vector once, evenly spaced down to
// MaxLadderChampions, the first and the last kept. Weights that were
// champion of several generations are rated as the champion of the last
// of them, so the weights the run ended on are always rated: as its last
// champion, or as the defaults or the start when they are those.
func (t *Tuner) ladderPlayers(hist []Generation) []LadderEntry {
	def := t.ev.Defaults()
	players := []LadderEntry{{Label: "defaults", Genome: DefaultsID, Generation: -1, Weights: def}}
	if t.start != nil && !slices.Equal(t.start, def) && t.cfg.StartIsReference() {
		players = append(players, LadderEntry{Label: "start", Genome: StartID, Generation: -1, Weights: t.start})
	}
	var champions []LadderEntry
	for _, g := range hist {
		for _, x := range g.Genomes {
			same := func(e LadderEntry) bool { return slices.Equal(e.Weights, x.Weights) }
			if x.ID != g.Best || slices.ContainsFunc(players, same) {
				continue
			}
			champions = append(slices.DeleteFunc(champions, same),
				LadderEntry{Label: ChampionLabel(g.Index), Genome: x.ID, Generation: g.Index, Spent: g.Spent, Weights: x.Weights})
		}
	}
	if n := len(champions); n > MaxLadderChampions {
		kept := make([]LadderEntry, 0, MaxLadderChampions)
		for i := 0; i < MaxLadderChampions; i++ {
			kept = append(kept, champions[i*(n-1)/(MaxLadderChampions-1)])
		}
		champions = kept
	}
	if t.start != nil && !t.cfg.StartIsReference() && !slices.Equal(t.start, def) &&
		!slices.ContainsFunc(champions, func(e LadderEntry) bool { return slices.Equal(e.Weights, t.start) }) {
		players = append(players, LadderEntry{Label: "start", Genome: RandomStartID, Generation: -1, Weights: t.start})
	}
	return append(players, champions...)
}

// AutoLadderPairs is the ladder's pairs per pairing when ladder-pairs is 0:
// about LadderShare of the run's games spent, at least 4 and at most 200.
func AutoLadderPairs(players, spent int) int {
	pairings := players * (players - 1) / 2
	if pairings == 0 {
		return 4
	}
	p := int(math.Round(LadderShare * float64(spent) / float64(2*pairings)))
	return min(max(p, 4), 200)
}

// Ladder rates the champions of the generations in hist, the start weights
// and the evaluator's defaults: a round robin of pairs colour-swapped pairs
// per pairing (0: AutoLadderPairs), every game recorded in the store under
// StageLadder (so an interrupted ladder resumes), on random openings drawn
// from a generator of its own and without any opening the run used; then
// maximum-likelihood ratings with draws, anchored at the defaults.
func (t *Tuner) Ladder(ctx context.Context, hist []Generation, pairs int) (*Ladder, error) {
	if len(hist) < 2 {
		return nil, fmt.Errorf("%w (this run has %d)", ErrLadderTooShort, len(hist))
	}
	players := t.ladderPlayers(hist)
	if pairs <= 0 {
		pairs = AutoLadderPairs(len(players), hist[len(hist)-1].Spent)
	}
	return t.RateEntries(ctx, players, pairs)
}

// RateEntries rates the given players in one pool, as Ladder does (a
// round robin of pairs colour-swapped pairs per pairing, recorded under
// StageLadder, on openings the run never used; ratings anchored at
// players[0]). Each player needs a distinct Genome id; the reference is
// the player with id StartID, if any, else players[0]. tune compare rates
// the champions of several runs with it.
func (t *Tuner) RateEntries(ctx context.Context, players []LadderEntry, pairs int) (*Ladder, error) {
	if len(players) < 2 {
		return nil, fmt.Errorf("population: a ladder needs two players or more (got %d)", len(players))
	}
	if pairs < 1 || pairs > MaxLadderPairs {
		return nil, fmt.Errorf("population: ladder pairs %d: 1 to %d", pairs, MaxLadderPairs)
	}
	openings, err := t.ladderOpenings(ctx, pairs)
	if err != nil {
		return nil, err
	}
	pairings := tournament.RoundRobinPairings(len(players))
	batch := make([]game, 0, 2*pairs*len(pairings))
	for p, ab := range pairings {
		a, b := players[ab[0]], players[ab[1]]
		for i := 0; i < pairs; i++ {
			op := ""
			if len(openings) > 0 {
				op = openings[(p*pairs+i)%len(openings)]
			}
			// The generation of a ladder game's key is its pairs per
			// pairing: a ladder of another size plays other games.
			batch = appendPair(batch, GameKey{StageLadder, pairs, 2 * (p*pairs + i)},
				Genome{ID: a.Genome, Weights: a.Weights}, Genome{ID: b.Genome, Weights: b.Weights}, op)
		}
	}
	recs, err := t.play(ctx, batch)
	if err != nil {
		return nil, err
	}
	results := make([]stats.PairResult, len(pairings))
	for p, ab := range pairings {
		results[p] = stats.PairResult{A: ab[0], B: ab[1]}
	}
	for i, r := range recs {
		p := i / (2 * pairs)
		s := pairScore(r, i)
		results[p].WDL.Add(s)
		players[pairings[p][0]].WDL.Add(s)
		players[pairings[p][1]].WDL.Add(1 - s)
	}
	l, err := rateLadder(players, results)
	if err != nil {
		return nil, err
	}
	l.Pairs = pairs
	return l, nil
}

// rateLadder rates the players from their pairings' results, anchored at
// the defaults (players[0]), and finds the best and the reference.
func rateLadder(players []LadderEntry, results []stats.PairResult) (*Ladder, error) {
	r, err := stats.Rate(len(players), results, stats.RatingOptions{Anchor: 0})
	if err != nil {
		return nil, fmt.Errorf("population: rating the ladder: %w", err)
	}
	l := &Ladder{Entries: players, DrawElo: r.DrawElo}
	for i := range players {
		p := r.Players[i]
		l.Entries[i].Elo, l.Entries[i].Low, l.Entries[i].High = p.Elo, p.Low, p.High
		if p.Elo > r.Players[l.Best].Elo {
			l.Best = i
		}
		if players[i].Genome == StartID {
			l.Reference = i
		}
	}
	elo, low, high := r.Difference(l.Best, l.Reference)
	l.BestLow, l.BestHigh = widen(elo, low, high, l.candidates())
	return l, nil
}

// candidates counts the players of l that may be named best, its
// champions and a random start: its strongest's interval is family-wise
// over them.
func (l *Ladder) candidates() int {
	n := 0
	for _, e := range l.Entries {
		if e.Generation >= 0 || e.Genome == RandomStartID {
			n++
		}
	}
	return n
}

// widen turns a 95% interval (elo, low, high) around the strongest of k
// candidates into a family-wise 95% interval (Bonferroni: each of the k at
// 1 - 0.05/k): the strongest of many noisy ratings is picked because it
// came out high, so its plain interval overstates the evidence. Measured
// on chess textbook from its defaults: a ladder's strongest of 12
// champions at +70 [+11, +129] scored -3.5 +- 32 against the defaults in an
// independent match; widened, its interval is [-16, +156] and the
// defaults are kept.
func widen(elo, low, high float64, k int) (float64, float64) {
	if k <= 1 || math.IsInf(low, 0) || math.IsInf(high, 0) {
		return low, high
	}
	z95 := distuv.UnitNormal.Quantile(0.975)
	zk := distuv.UnitNormal.Quantile(1 - 0.025/float64(k))
	return elo - (elo-low)*zk/z95, elo + (high-elo)*zk/z95
}

// ladderOpenings draws the ladder's openings: the run's kind of random
// openings (random:8 when the run used fixed ones) from a seed of the
// ladder's own, without any of the run's openings (its list, or the
// yardstick's when drawn). A run on random openings keeps its training
// pool clear of these (growPool), so the ladder never replays a
// training or yardstick opening. A ladder of more pairs a pairing than
// one batch holds draws further batches of its stream (not those of the
// training pool drawn so far) until each pair has its own: two players
// that search without randomness replay a pair from the same opening
// exactly, and counting it again narrows the interval for nothing.
func (t *Tuner) ladderOpenings(ctx context.Context, pairs int) ([]string, error) {
	spec := t.cfg.Openings
	if !tournament.IsRandomOpenings(spec) {
		spec = "random:8"
	}
	seed := rngFor(t.cfg.Seed, StageLadder, 0, 0).Uint64()
	used := make(map[string]bool, len(t.openings)+len(t.pool.seen))
	for _, op := range t.openings {
		used[t.openingKey(op)] = true
	}
	drawn, err := tournament.RandomOpenings(ctx, t.game, spec, seed)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, op := range drawn {
		if key := t.openingKey(op); !used[key] {
			used[key] = true
			out = append(out, op)
		}
	}
	return tournament.MoreRandomOpenings(ctx, t.game, spec, seed, false, out, pairs, func(op string) bool {
		key := t.openingKey(op)
		fresh := !used[key] && !t.pool.seen[key]
		used[key] = true
		return fresh
	})
}
