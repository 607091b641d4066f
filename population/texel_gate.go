package population

import (
	"context"
	"fmt"

	"github.com/gametune/gametune/tournament/stats"
)

// StageTexelGate names the games of a Texel round's gate: its fit against
// the weights the round started from.
const StageTexelGate = "texel-gate"

// AutoTexelGatePairs is texel-gate-pairs' value for the default: a gate
// of about a twentieth of the round's self-play games (texelGatePairs).
const AutoTexelGatePairs = -1

// minTexelGatePairs is the least pairs of an automatic gate.
const minTexelGatePairs = 8

// texelGatePairs is the number of colour-swapped pairs a round's fit plays
// against the weights the round started from before it may replace them:
// TexelGatePairs, or for AutoTexelGatePairs a twentieth of the round's
// games (at least minTexelGatePairs). 0 means no gate.
func (c TexelConfig) texelGatePairs() int {
	if c.TexelGatePairs != AutoTexelGatePairs {
		return c.TexelGatePairs
	}
	return max(minTexelGatePairs, (c.TexelGames+39)/40)
}

// gate plays the round's fit against the weights the round started from,
// texelGatePairs colour-swapped pairs on the run's training openings, and
// returns the fit's record. The games' positions join the fit's, for the
// next round. Measured on checkers (issue 26's note), a fit
// that predicts held-out results much better can still lose 80 Elo to its
// start: a fit is kept only when it wins its gate.
func (m *texel) gate(ctx context.Context, round int, fit, start Genome) (stats.WDL, error) {
	n := m.cfg.texelGatePairs()
	var batch []game
	for i := range n {
		op := m.t.opening(StageTexelGate, round, i)
		batch = appendPair(batch, GameKey{StageTexelGate, round, 2 * i}, fit, start, op)
	}
	recs, err := m.t.play(ctx, batch)
	if err != nil {
		return stats.WDL{}, err
	}
	var w stats.WDL
	for i := range recs {
		w.Add(pairScore(recs[i], i))
	}
	return w, m.addGames(ctx, batch)
}

// lastRoundExtra is the self-play games the last round of a run with a
// games budget plays beyond texel-games when the ladder would have
// nothing to rate (no round took a fit, and the start is the defaults):
// the share of the budget kept for the ladder would go unspent otherwise
// (a Texel run from the defaults whose fits were all refused played 17,900
// games of a 20,000-game budget). The round's gate and the last yardstick
// are kept out of it. 0 in any other round or run.
func (m *texel) lastRoundExtra(round int) int {
	t := m.t
	c := t.cfg
	if c.BudgetGames <= 0 || round != c.TexelRounds-1 || len(t.ladderPlayers(t.champion)) >= 2 {
		return 0
	}
	return max(c.BudgetGames-t.spent-c.generationGames(t.ev)-4*c.YardstickPairs, 0)
}

// gateKeeps is the gate's verdict: a round's fit replaces the weights the
// round started from only when it scored more than half of the gate's
// points. The one place Texel decides on its gate's games.
func gateKeeps(w stats.WDL) bool { return w.Score() > 0.5 }

// gateNote says how a round's gate went, for TexelRound.Reason.
func gateNote(w stats.WDL) string {
	return fmt.Sprintf("the fit scored %.1f%% (%d-%d-%d) against the weights the round started from: not more than half",
		100*w.Score(), w.Wins, w.Draws, w.Losses)
}
