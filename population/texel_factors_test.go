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
	"github.com/gametune/gametune/learn"
	"github.com/gametune/gametune/tournament"
)

// TestExperimentTexelFactors measures, one at a time, what Texel's fit
// on checkers depends on: the same self-play games of the defaults
// (checkers full, depth 4) are fitted with each choice of games, and each
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
		name string
		keep func(r tournament.Record) bool
	}
	all := func(tournament.Record) bool { return true }
	decided := func(r tournament.Record) bool { return r.Reason != tournament.ByPlyCap }
	noRuleDraws := func(r tournament.Record) bool {
		return r.Outcome != games.Draw || r.Reason != tournament.ByRule
	}
	variants := []variant{
		{name: "baseline (all games, quiet, K fitted)", keep: all},
		{name: "without ply-cap games", keep: decided},
		{name: "without draws by rule or cap", keep: func(r tournament.Record) bool { return decided(r) && noRuleDraws(r) }},
	}
	var rows []string
	for _, v := range variants {
		set := &learn.Set{Game: g}
		for _, r := range res.Records {
			if !v.keep(r) {
				continue
			}
			lg, ok, err := fitGame(g, r)
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				set.Games = append(set.Games, lg)
			}
		}
		round, err := FitRound(ctx, set, ev, def, 1)
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
