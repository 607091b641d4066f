// Package population holds genomes (weight vectors) and tunes them.
//
// A run starts from a Config (one section per tuner, inlined so that its
// YAML keys are flat; Keys documents each key a user may set, and is what
// tune run binds its flags from): Resolve validates it once, reads the
// files it names and returns a Plan; New makes the Tuner of a plan. The Tuner is the one
// driver (gonum's optimize.Minimize for games): it plays each generation's
// games through a tournament.Runner (the local pool or a cluster), records
// every game and generation through a Recorder (an interface this package
// defines and the results package implements), measures the yardstick,
// applies the budgets, closes each generation and rates the champions in
// a ladder at the end. A Method proposes what a generation plays and
// learns from the results: the Othello report's genetic algorithm, the
// checkers report's knockout tournaments, SPSA, CMA-ES, Texel's fit and
// Bayesian optimisation, each in its own file with its Descriptor: its
// section, defaults and keys, its length and budget sizing, its Method and
// the views the reports draw for it, registered once (registry.go); code
// elsewhere asks the registry (TunerOf) and never switches on the
// algorithm. A run resumed from its store replays nothing and
// ends exactly where an uninterrupted run would; ChooseBest is the one
// definition of a run's best genome.
package population
