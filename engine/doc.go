// Package engine is gametune's one game-tree searcher, shared by every game:
// negamax alpha-beta with principal variation search, iterative deepening,
// aspiration windows, a transposition table sized in MiB, killer and history
// move ordering, the game's own ordering hints and quiescence over the game's
// noisy moves. It knows games only through games.Position.
//
// Minimax, a plain full-width search, stays beside the Searcher as the
// reference its tests compare against: at the same depth the two return
// the same value.
package engine
