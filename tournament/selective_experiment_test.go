package tournament_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
)

// The selective search's strength against the exact one, at equal nodes,
// at equal depth and at equal time a move: matches of colour-swapped pairs
// from random openings between two searchers of different engine.Options,
// each played as an Engine of its own (the built-in players search with
// the pool's searchers, which have the default options). They run with
// GAMETUNE_EXPERIMENTS=1 only; their figures are on the experiments page.

// searchEngine is a built-in searcher with options of its own, as a
// tournament.Engine: its movers search with the evaluator, weights and
// limits of the player, or for moveTime a move when that is set.
type searchEngine struct {
	name     string
	opts     engine.Options
	moveTime time.Duration
	// moves, depths and nodes count what its movers searched.
	moves, depths, nodes atomic.Int64
}

func (e *searchEngine) Key() string               { return e.name }
func (e *searchEngine) Timing() tournament.Timing { return tournament.Timing{} }
func (e *searchEngine) NewMover(io.Writer) tournament.Mover {
	s, err := engine.New(e.opts)
	if err != nil {
		panic(err) // the options of these experiments are valid
	}
	return &searchMover{e: e, s: s}
}

type searchMover struct {
	e  *searchEngine
	s  *engine.Searcher
	pl tournament.Player
}

func (m *searchMover) NewGame(_ context.Context, s tournament.Start) error {
	m.pl = s.Player
	m.s.NewGame()
	return nil
}

func (m *searchMover) Move(ctx context.Context, t tournament.Turn) (tournament.Reply, error) {
	lim, sctx := m.pl.Limits, ctx
	if m.e.moveTime > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, m.e.moveTime)
		defer cancel()
		lim = engine.Limits{Depth: engine.MaxDepth}
	}
	res, err := m.s.Search(sctx, t.Position, m.pl.Evaluator, m.pl.Weights, lim)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		err = nil
	}
	m.e.moves.Add(1)
	m.e.depths.Add(int64(res.Stats.Depth))
	m.e.nodes.Add(res.Stats.Nodes)
	return tournament.Reply{Move: res.Move, Score: res.Score, Scored: true, Depth: res.Stats.Depth, Nodes: res.Stats.Nodes}, err
}

func (m *searchMover) Close() error { return nil }

// strengthCase is one game of the matches: its evaluator, the adjudication
// that shortens its decided games, and the limits compared.
type strengthCase struct {
	game, evaluator string
	adj             tournament.Adjudication
	nodes           int64
	depth           int
	moveTime        time.Duration
}

var strengthCases = []strengthCase{
	{"chess", "pst", tournament.Adjudication{ResignMargin: 1000, ResignPlies: 6, DrawAfter: 120, DrawMargin: 10, DrawPlies: 20}, 20000, 6, 100 * time.Millisecond},
	{"othello", "patterns", tournament.Adjudication{}, 20000, 6, 100 * time.Millisecond},
	{"checkers", "patterns", tournament.Adjudication{ResignMargin: 500, ResignPlies: 6, DrawAfter: 120, DrawMargin: 20, DrawPlies: 20}, 20000, 10, 100 * time.Millisecond},
}

// envInt reads an integer setting of the experiment, or def.
func envInt(t *testing.T, name string, def int64) int64 {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("%s=%q: want a whole number", name, s)
	}
	return n
}

// selectiveVariants are the searchers a match may set against the exact
// one (GAMETUNE_VARIANT, default "selective"), and against each other
// (GAMETUNE_BASE, default "exact").
var selectiveVariants = map[string]engine.Options{
	"exact":     {},
	"selective": {Selective: true},
	"-null":     {Selective: true, NoNullMove: true},
	"-lmr":      {Selective: true, NoLateReductions: true},
	"-lmp":      {Selective: true, NoLatePruning: true},
	"-futility": {Selective: true, NoFutility: true},
	"-rfp":      {Selective: true, NoReverseFutility: true},
	"-razor":    {Selective: true, NoRazoring: true},
	"-see":      {Selective: true, NoExchangePruning: true},
	"-probcut":  {Selective: true, NoProbCut: true},
	"-iir":      {Selective: true, NoReduceUnordered: true},
	"exact-tt":  {Selective: true, ExactTableCuts: true},
}

func TestVariantOptions(t *testing.T) {
	o, ok := variantOptions("-null+-lmp")
	want := engine.Options{Selective: true, NoNullMove: true, NoLatePruning: true}
	if !ok || o != want {
		t.Errorf("-null+-lmp: %+v, %v; want %+v", o, ok, want)
	}
	for _, bad := range []string{"", "-nul", "-null+", "-null+exact", "-null+-bogus"} {
		if _, ok := variantOptions(bad); ok {
			t.Errorf("%q: accepted, want refused", bad)
		}
	}
}

// variantOptions is the searcher of a variant: one of selectiveVariants, or
// several of the selective ones joined by "+" ("-null+-lmp": the selective
// search without null move and without late-move pruning).
func variantOptions(name string) (engine.Options, bool) {
	var o engine.Options
	for i, part := range strings.Split(name, "+") {
		v, ok := selectiveVariants[part]
		if !ok || (i > 0 && !v.Selective) {
			return engine.Options{}, false
		}
		if i == 0 {
			o = v
			continue
		}
		o.NoNullMove = o.NoNullMove || v.NoNullMove
		o.NoLateReductions = o.NoLateReductions || v.NoLateReductions
		o.NoLatePruning = o.NoLatePruning || v.NoLatePruning
		o.NoFutility = o.NoFutility || v.NoFutility
		o.NoReverseFutility = o.NoReverseFutility || v.NoReverseFutility
		o.NoRazoring = o.NoRazoring || v.NoRazoring
		o.NoExchangePruning = o.NoExchangePruning || v.NoExchangePruning
		o.NoProbCut = o.NoProbCut || v.NoProbCut
		o.NoReduceUnordered = o.NoReduceUnordered || v.NoReduceUnordered
		o.ExactTableCuts = o.ExactTableCuts || v.ExactTableCuts
	}
	return o, true
}

// TestSelectiveStrength plays, for each game (GAMETUNE_GAME for one), a
// match of GAMETUNE_PAIRS pairs (default 50) between the variant and the
// base at each of equal nodes (GAMETUNE_NODES), equal depth
// (GAMETUNE_DEPTH) and equal time a move (GAMETUNE_MOVETIME_MS), each
// limit 0 to skip it, and prints the variant's Elo per pair with its 95%
// interval. GAMETUNE_VARIANT may list variants, "-null,-lmr,...", played
// one after the other (the ablations: the selective search without one
// technique against the whole of it, GAMETUNE_BASE=selective); a variant
// may join several with "+" ("-null+-lmp", variantOptions).
// GAMETUNE_VARIANT_PARAMS, "name=value,...", sets search parameters of the
// variant over the game's defaults.
func TestSelectiveStrength(t *testing.T) {
	if os.Getenv("GAMETUNE_EXPERIMENTS") != "1" {
		t.Skip("matches of minutes to hours: set GAMETUNE_EXPERIMENTS=1 to run them")
	}
	variant, base := os.Getenv("GAMETUNE_VARIANT"), os.Getenv("GAMETUNE_BASE")
	if variant == "" {
		variant = "selective"
	}
	if base == "" {
		base = "exact"
	}
	bo, ok := variantOptions(base)
	if !ok {
		t.Fatalf("unknown base %q", base)
	}
	variants := strings.Split(variant, ",")
	for _, v := range variants {
		if _, ok := variantOptions(v); !ok {
			t.Fatalf("unknown variant %q", v)
		}
	}
	pairs := int(envInt(t, "GAMETUNE_PAIRS", 50))
	for _, c := range strengthCases {
		if g := os.Getenv("GAMETUNE_GAME"); g != "" && g != c.game {
			continue
		}
		for _, variant := range variants {
			vo, _ := variantOptions(variant)
			strengthLimits(t, c, pairs, variant, vo, base, bo)
		}
	}
}

// strengthLimits plays the variant against the base at each limit the
// case and the settings ask for.
func strengthLimits(t *testing.T, c strengthCase, pairs int, variant string, vo engine.Options, base string, bo engine.Options) {
	t.Helper()
	nodes := envInt(t, "GAMETUNE_NODES", c.nodes)
	depth := int(envInt(t, "GAMETUNE_DEPTH", int64(c.depth)))
	moveTime := time.Duration(envInt(t, "GAMETUNE_MOVETIME_MS", c.moveTime.Milliseconds())) * time.Millisecond
	for _, lim := range []struct {
		name     string
		lim      engine.Limits
		moveTime time.Duration
	}{
		{"nodes=" + strconv.FormatInt(nodes, 10), engine.Limits{Nodes: nodes}, 0},
		{"depth=" + strconv.Itoa(depth), engine.Limits{Depth: depth}, 0},
		{"movetime=" + moveTime.String(), engine.Limits{Depth: engine.MaxDepth}, moveTime},
	} {
		if lim.lim == (engine.Limits{Nodes: 0}) || lim.lim == (engine.Limits{Depth: 0}) || (lim.name[0] == 'm' && moveTime == 0) {
			continue
		}
		e := strengthMatch(t, c, pairs, lim.lim, lim.moveTime, variant, vo, base, bo)
		t.Logf("%s %s: %s vs %s, %d pairs: %s", c.game, lim.name, variant, base, pairs, e)
	}
}

// strengthMatch plays the match and returns the pentanomial tally's
// estimate, the variant's point of view.
func strengthMatch(t *testing.T, c strengthCase, pairs int, lim engine.Limits, moveTime time.Duration, an string, ao engine.Options, bn string, bo engine.Options) string {
	t.Helper()
	ctx := context.Background()
	g, err := all.Find(c.game)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := games.FindEvaluator(g, c.evaluator)
	if err != nil {
		t.Fatal(err)
	}
	seed := uint64(envInt(t, "GAMETUNE_SEED", 5200))
	openings, err := tournament.LoadMatchOpenings(ctx, g, "random:8", seed, false, pairs)
	if err != nil {
		t.Fatal(err)
	}
	if set := os.Getenv("GAMETUNE_VARIANT_PARAMS"); set != "" {
		m := map[string]float64{}
		for _, kv := range strings.Split(set, ",") {
			k, v, _ := strings.Cut(kv, "=")
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("GAMETUNE_VARIANT_PARAMS: %q: %v", kv, err)
			}
			m[k] = f
		}
		if ao.Params, err = engine.SearchParamsFrom(engine.DefaultSearchParams(g.Start()), m); err != nil {
			t.Fatal(err)
		}
		an += "(" + set + ")"
	}
	ae, be := &searchEngine{name: an, opts: ao, moveTime: moveTime}, &searchEngine{name: bn, opts: bo, moveTime: moveTime}
	a := tournament.Player{Name: an, Evaluator: ev, Weights: ev.Defaults(), Limits: lim, Engine: ae}
	b := tournament.Player{Name: bn, Evaluator: ev, Weights: ev.Defaults(), Limits: lim, Engine: be}
	pool, err := tournament.NewPool(int(envInt(t, "GAMETUNE_WORKERS", 2)), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	specs := tournament.MatchSpecs(g, a, b, pairs, openings, 0, c.adj)
	res, err := tournament.RunMatch(ctx, pool, specs, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	per := func(e *searchEngine) string {
		n := max(e.moves.Load(), 1)
		return fmt.Sprintf("depth %.1f, %d nodes", float64(e.depths.Load())/float64(n), e.nodes.Load()/n)
	}
	return fmt.Sprintf("%s per pair; games +%d =%d -%d; a move %s against %s",
		res.Pentanomial.EloEstimate(), res.WDL.Wins, res.WDL.Draws, res.WDL.Losses, per(ae), per(be))
}
