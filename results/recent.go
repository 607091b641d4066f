package results

import (
	"database/sql"
	"strings"
	"time"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/tournament"
)

// LastGames returns the n games recorded last, the latest first (fewer when
// the run has fewer). It reads n rows at most, whatever the size of the run.
func (r *Run) LastGames(n int) ([]population.GameResult, error) {
	if n <= 0 {
		return nil, nil
	}
	var out []population.GameResult
	err := r.eachRow(`SELECT stage, generation, idx, first, second, opening, outcome, reason, plies, moves, nodes, seconds
		FROM games ORDER BY rowid DESC LIMIT ?`, func(rows *sql.Rows) error {
		var g population.GameResult
		var outcome, reason, moves string
		var secs float64
		if err := rows.Scan(&g.Key.Stage, &g.Key.Generation, &g.Key.Index, &g.First, &g.Second, &g.Record.Opening,
			&outcome, &reason, &g.Record.Plies, &moves, &g.Record.Nodes, &secs); err != nil {
			return err
		}
		g.Record.Outcome = parseOutcome(outcome)
		g.Record.Reason = tournament.Reason(reason)
		if moves != "" {
			g.Record.Moves = strings.Split(moves, " ")
		}
		g.Record.Duration = time.Duration(secs * float64(time.Second))
		out = append(out, g)
		return nil
	}, n)
	if err != nil {
		return nil, err
	}
	return out, nil
}
