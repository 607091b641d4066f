// Package cluster plays games on workers elsewhere, through NATS JetStream.
//
// A Runner is a tournament.Runner: it publishes each game of a batch as a
// job (the JSON form of a tournament.GameSpec, keyed by a hash of its
// content) on the work-queue stream of jobs, under the subject of its run,
// and consumes the results that workers publish on the work-queue stream of
// results, under the same run. A Worker pulls jobs of every run from one
// shared durable consumer, plays them with its own searchers, publishes the
// result and only then acknowledges the job; during a long game it tells the
// server the job is still in progress. A job a worker crashed on goes back
// to the queue after the consumer's ack wait; one that fails MaxDeliver
// times is reported to its run by the server's advisory, not retried (an
// error wrapping ErrMaxDeliver). Dial connects a command to the broker and
// returns its Runner, which owns the connection (and a broker the process
// started); RunName, MatchName and ProcessName name runs and workers.
// Options are a command's broker settings, kept in a run's directory
// (OptionsFile) so that a resumed run finds its broker again.
//
// Results do not depend on where games are played: a game depends on its
// spec alone (the searcher's table size travels with it), and the runner
// hands results over in spec order, once per game, whatever the order and
// the number of times they arrive.
//
// Files a job needs besides its message travel as artifacts, named by
// their SHA-256 in JetStream's object store (PutArtifact): a player's
// tables other than the game's own go so (TablesArtifact), and a worker
// fetches each once into its ArtifactCache. A runner may ask for the
// movers' scores (RunnerOptions.Scores), which learn's self-play needs.
// External engines travel by spec and by their binary's SHA-256
// (WireEngine): a worker plays those its operator allowed
// (WorkerOptions.Engines, or AcceptEngines for binaries a coordinator
// uploaded), clock games at most one per core, and reports its speed.
//
// Broker starts an embedded NATS server with JetStream on disk, for users
// who run none of their own. Access always needs the token, or a worker's
// own key (NewWorkerKey), which allows a worker's work only; TLS on demand.
// Workers refuse jobs beyond their JobLimits and give up a game past its
// job's deadline.
//
// A worker with a key of its own is named by it: it may publish results
// only under its key, in the stream of a run that exists (one per run, made
// by its coordinator, with a quota of each worker's results), and only for
// jobs it was handed (each job carries a ticket the result must return).
// The coordinator reads the name from the subject, quarantines and purges
// a worker that sends what is not a result of a job it holds, and
// publishes again the jobs that leave the queue without a result
// (findLost).
package cluster
