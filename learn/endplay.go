package learn

import (
	"fmt"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
)

// EndPlay is how self-play and gate games are played near their end, where
// the engine searches to the end of the game (games.Exact: Othello's last
// 12 empty squares). Both play exactly, so a game's result is the same
// either way (the value of its first position in that range), but not its
// moves there: a position has several moves of the same value, and the two
// choose differently.
type EndPlay string

const (
	// EndPlaySolver plays the moves of the game's own solver
	// (games.RootSolver, engine.Options.SolveRoot): Othello's finds the best
	// final disc difference, in a fraction of the engine's time. The
	// positions keep the engine's scores (its exact search's). The default
	// of new runs.
	EndPlaySolver EndPlay = "solver"
	// EndPlayEngine plays the engine's own search to the end: the play of
	// the runs before EndPlaySolver (the shipped Othello tables were
	// rebuilt with it), and of runs whose state records no EndPlay.
	EndPlayEngine EndPlay = "engine"
)

// EndPlays lists the values of EndPlay, for messages.
const EndPlays = "solver, engine"

// check says what is wrong with e, "" meaning the run's own (Config.EndPlay).
func (e EndPlay) check() error {
	switch e {
	case "", EndPlaySolver, EndPlayEngine:
		return nil
	}
	return fmt.Errorf("end play %q: want one of %s", string(e), EndPlays)
}

// Player returns p, a player of g, playing with e: its search's SolveRoot
// on for EndPlaySolver in a game with an end solver (games.RootSolver),
// off otherwise (the players of other games are unchanged: their games,
// and their jobs on the cluster's wire, are the same either way).
func (e EndPlay) Player(g games.Game, p tournament.Player) tournament.Player {
	_, solves := g.Start().(games.RootSolver)
	p.Search.SolveRoot = e == EndPlaySolver && solves
	return p
}
