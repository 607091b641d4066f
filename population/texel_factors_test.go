package population

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
)

// TestExperimentTexelFactors measures, one at a time, what Texel's fit
// on checkers depends on: the same self-play games of the defaults
// (checkers full, depth 4) are fitted with each factor changed, and each
// fit plays the defaults for 100 pairs at depth 4 on openings of another
// seed. It takes about ten minutes on 2 cores, so it runs only with
// GAMETUNE_EXPERIMENTS=1; its table is in the note.
func TestExperimentTexelFactors(t *testing.T) {
	if os.Getenv("GAMETUNE_EXPERIMENTS") != "1" {
		t.Skip("a Texel study of about ten minutes: set GAMETUNE_EXPERIMENTS=1 to run it")
	}
	ctx := context.Background()
	g, err := all.Find("checkers")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := games.FindEvaluator(g, "full")
	if err != nil {
		t.Fatal(err)
	}
	pool, err := tournament.NewPool(2, 16)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	def := ev.Defaults()
	player := func(name string, w []float64) tournament.Player {
		return tournament.Player{Name: name, Evaluator: ev, Weights: w, Limits: engine.Limits{Depth: 4}}
	}
	openings, err := tournament.RandomOpenings(ctx, g, "random:16", 11)
	if err != nil {
		t.Fatal(err)
	}
	specs := tournament.MatchSpecs(g, player("a", def), player("b", def), 3000, openings, 0, tournament.Adjudication{})
	res, err := tournament.RunMatch(ctx, pool, specs, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]int{}
	for _, r := range res.Records {
		reasons[fmt.Sprintf("%v/%s", r.Outcome, r.Reason)]++
	}
	t.Logf("%d self-play games: %v", len(res.Records), reasons)

	type variant struct {
		name   string
		keep   func(r tournament.Record) bool
		noisy  bool
		l2     float64
		byGame bool
	}
	all := func(tournament.Record) bool { return true }
	decided := func(r tournament.Record) bool { return r.Reason != tournament.ByPlyCap }
	noRuleDraws := func(r tournament.Record) bool {
		return r.Outcome != games.Draw || r.Reason != tournament.ByRule
	}
	variants := []variant{
		{name: "baseline (all games, quiet, K fitted, no L2)", keep: all},
		{name: "no quiescence (raw positions)", keep: all, noisy: true},
		{name: "without ply-cap games", keep: decided},
		{name: "without draws by rule or cap", keep: func(r tournament.Record) bool { return decided(r) && noRuleDraws(r) }},
		{name: "L2 0.001 toward the start", keep: all, l2: 0.001},
		{name: "L2 0.01 toward the start", keep: all, l2: 0.01},
		{name: "held out by game", keep: all, byGame: true},
	}
	var rows []string
	for _, v := range variants {
		train, held := &Positions{Dim: len(ev.Features)}, &Positions{Dim: len(ev.Features)}
		train.noisy, held.noisy = v.noisy, v.noisy
		if !v.byGame {
			train.HeldOut, train.SplitSeed = held, 1
		}
		for i, r := range res.Records {
			if !v.keep(r) {
				continue
			}
			to := train
			if v.byGame && heldOut(1, uint64(i/2)) {
				to = held
			}
			if err := to.AddGame(g, ev, def, r); err != nil {
				t.Fatal(err)
			}
		}
		fitL2 = v.l2
		round, err := FitRound(ctx, train, held, ev, def)
		fitL2 = 0
		if err != nil {
			t.Fatal(err)
		}
		m, err := tournament.RunMatch(ctx, pool, tournament.MatchSpecs(g, player("fit", round.Fit.Weights), player("defaults", def), 100,
			mustOpenings(t, g, 4242), 0, tournament.Adjudication{}), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		row := fmt.Sprintf("%-46s K %.5f  held %.5f -> %.5f (%v)  %d positions  vs defaults %d-%d-%d %v  weights %v",
			v.name, round.Fit.K, round.HeldStart, round.HeldFit, round.Accepted, round.Train,
			m.WDL.Wins, m.WDL.Draws, m.WDL.Losses, m.Pentanomial.EloEstimate(), round.Fit.Weights)
		t.Log(row)
		rows = append(rows, row)
	}
	t.Log("\n" + strings.Join(rows, "\n"))
}

func mustOpenings(t *testing.T, g games.Game, seed uint64) []string {
	t.Helper()
	o, err := tournament.RandomOpenings(context.Background(), g, "random:8", seed)
	if err != nil {
		t.Fatal(err)
	}
	return o
}
