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

// gateNote says how a round's gate went, for TexelRound.Reason.
func gateNote(w stats.WDL) string {
	return fmt.Sprintf("the fit scored %.1f%% (%d-%d-%d) against the weights the round started from: not more than half",
		100*w.Score(), w.Wins, w.Draws, w.Losses)
}
