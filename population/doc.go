// Package population holds genomes (weight vectors) and the tuners that
// evolve them: the Othello report's genetic algorithm and the checkers
// report's knockout tournaments. Tuners play their games through
// tournament's worker pool and record every game and generation through a
// Store, an interface this package defines and the results package
// implements; a run resumed from its store replays nothing and ends exactly
// where an uninterrupted run would.
package population
