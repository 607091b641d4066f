package population

import (
	"fmt"

	"github.com/gametune/gametune/games"
)

// Texel is a logistic fit of the evaluation to game results.
const Texel Algo = "texel"

// texelTuner describes Texel's tuner for the registry. It has a file of
// its own beside texel.go (the method), texel_gate.go and
// texel_heldout.go (its rules), which the fit's owners change.
func texelTuner() *Descriptor {
	return &Descriptor{
		Algo:       Texel,
		Generation: "round", LengthKey: "texel-rounds", Longest: MaxTexelRounds,
		Section:  TexelConfig{TexelRounds: 3, TexelGames: 500, TexelOpeningPlies: 8, TexelGatePairs: AutoTexelGatePairs},
		Keys:     texelKeys,
		Later:    []string{"texel-gate-pairs"},
		Validate: func(c Config) error { return c.TexelConfig.validate(c.BudgetGames) },
		Foreign: func(c Config) error {
			return check(len(c.TexelPositionsFrom) == 0 && c.TexelPositions == "",
				"texel-positions-from and texel-positions feed Texel's fit: they need algo texel, not %s", c.Algo)
		},
		GenerationGames: func(c Config, _ *games.Evaluator) int { return c.TexelGames + 2*c.texelGatePairs() },
		// TexelBudgetRounds rounds (more when a round would exceed
		// MaxTexelGames) of the fewest texel-games that reach the target,
		// or, with texel-games given, the fewest rounds.
		SizeToBudget: func(c *Config, target int, explicit func(string) bool) {
			if explicit("texel-games") {
				c.TexelRounds = fewest(MaxTexelRounds, target, func(r int) int { return r*c.generationGames(nil) + c.yardstickGames(nil, r) })
				return
			}
			c.TexelRounds = min(max(TexelBudgetRounds, (target+MaxTexelGames-1)/MaxTexelGames), MaxTexelRounds)
			c.TexelGames = fewest(MaxTexelGames, target, func(g int) int {
				x := *c
				x.TexelGames = g // the yardstick's auto spacing depends on it
				return x.TexelRounds*x.generationGames(nil) + x.yardstickGames(nil, x.TexelRounds)
			})
		},
		New:    newTexel,
		Plan:   func(c Config) string { return fmt.Sprintf("%d self-play games a round, then a fit", c.TexelGames) },
		Report: ReportViews{Line: "texel", Figures: []string{"texel-loss"}, History: []string{"texel"}},
	}
}

// texelKeys are Texel's section's keys.
var texelKeys = []Key{
	{Name: "texel-rounds", Help: "texel: rounds of self-play games then a fit"},
	{Name: "texel-games", Help: "texel: self-play games per round, counted against the budget"},
	{Name: "texel-opening-plies", Help: "texel: random plies after the opening of each self-play game"},
	{Name: "texel-positions-from", Flag: "positions-from", Help: "texel: also fit on the games of this run directory (repeatable)"},
	{Name: "texel-positions", Flag: "positions", Help: "texel: also fit on this file of positions with results: 'POSITION | 1-0', EPD with c9 \"1-0\";, 'POSITION [1.0]' or 'POSITION; 1.0' lines"},
	{Name: "texel-gate-pairs", Help: "texel: pairs each round's fit plays against the weights the round started from, kept only when it scores more than half (their positions join the next fit; -1: a twentieth of the round's games, at least 8; 0: none, the held-out loss alone decides)"},
}
