// Package engine is gametune's one game-tree searcher, shared by every game:
// negamax alpha-beta with principal variation search, iterative deepening,
// aspiration windows, a transposition table sized in MiB, killer and history
// move ordering, the game's own ordering hints and quiescence over the game's
// noisy moves (in a games.QuietChecker, chess, also the quiet checks at its
// first ply, and every legal move in answer to a check). It knows games
// only through games.Position.
//
// A game may take parts of the tree off its hands where per-move calls cost
// more than the work: a games.Frontier searches the nodes one or two plies
// above the horizon (Othello's evaluations are most of a search), and a
// games.Ender the last plies of the game (Othello's last empty squares).
// They return the values the engine would find, and their moves count as
// nodes. With Options.SolveRoot, a games.RootSolver answers whole searches
// from its exact range (Othello's last 12 empty squares) with its own
// solver: the engine's score, and a move of the same value as the engine's.
//
// With Options.Selective the search turns selective, as chess engines are:
// table entries end nodes at their depth or deeper, and where the game
// opts in (games.NullMover, games.Exchanger, games.ProbCutter) null-move
// pruning, late-move reductions and pruning, futility and reverse futility
// pruning, razoring, the pruning of losing captures in quiescence and
// Multi-ProbCut prune the tree, each a switch in Options and every number
// a named parameter (SearchParams, SearchParamList) that tuners, weights
// files and engine options can set. It no longer returns the minimax value
// to its depth; the exact search, the default, still does.
//
// Minimax, a plain full-width search, stays beside the Searcher as the
// reference its tests compare against: at the same depth the two return
// the same value.
package engine
