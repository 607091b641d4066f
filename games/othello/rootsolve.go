package othello

import (
	"context"
	"fmt"

	"github.com/gametune/gametune/games"
)

// NewEndSolver returns the games.EndSolver of Othello's positions of
// ExactEmpties or fewer empty squares (engine.Options.SolveRoot): the
// endScorer, which finds the engine's exact score and a move that keeps
// it. Its table (192 KiB) is allocated here, once for the searcher that
// keeps it.
func (p *Position) NewEndSolver() (games.EndSolver, error) {
	return &rootSolver{scorer: newEndScorer()}, nil
}

// rootSolver is the endScorer as a games.EndSolver.
type rootSolver struct {
	scorer *endScorer
}

// SolveRoot returns the engine's exact score of p and the first move in
// the endScorer's root order that keeps it (endScorer.best). A search
// takes a few thousand moves at most: ctx is not looked at.
func (r *rootSolver) SolveRoot(_ context.Context, gp games.Position, win int32) (games.RootSolution, error) {
	p, ok := gp.(*Position)
	if !ok {
		return games.RootSolution{}, fmt.Errorf("othello: the end solver was given a position of another game (%T)", gp)
	}
	if p.Empties() > ExactEmpties {
		return games.RootSolution{}, fmt.Errorf("othello: the end solver was given a position of %d empty squares (at most %d)", p.Empties(), ExactEmpties)
	}
	r.scorer.nodes = 0
	sc, m := r.scorer.best(p.mine(), p.theirs(), win)
	return games.RootSolution{Move: m, Score: sc, Nodes: r.scorer.nodes}, nil
}

// NewGame forgets the last root's score (the first guess of the next
// root's) and the table's bounds (endScorer.forget): the nodes of a game's
// searches depend on that game alone. Neither changes a score or a move.
func (r *rootSolver) NewGame() { r.scorer.forget() }
