package cluster

import (
	"fmt"
	"strings"
	"time"
)

// DefaultJobDeadline is the time a worker may spend on a game whose job
// names none: a game of a tuning run at depth 8 takes seconds, a chess game
// at depth 12 minutes; half an hour means a game stuck or far beyond the
// run's pace. maxJobDeadline bounds the deadline a job may ask for.
const (
	DefaultJobDeadline = 30 * time.Minute
	maxJobDeadline     = 24 * time.Hour
)

// The default limits of a worker (JobLimits), chosen well above what
// tuning asks for and well below what hurts a machine: presets search 1 to
// 10 plies (depth 20 is beyond every one of them, but an Othello search of
// depth 64 never ends); the local pool plays with tables of 2 MiB, and 256
// MiB a game keeps a worker of 8 games at once within 2 GiB; games end by
// rule or at the 400-ply default cap, and 1000 plies leave room for long
// chess games while a game of 100,000 plies would hold a worker for hours.
const (
	DefaultMaxDepth    = 20
	DefaultMaxTableMiB = 256
	DefaultMaxPlies    = 1000
)

// JobLimits are the largest jobs a worker plays; it refuses larger ones
// (ErrBeyondLimits), which go back to the queue for a worker with larger
// limits and fail their run after the consumer's MaxDeliver deliveries. A
// zero field means its default (DefaultMaxDepth, DefaultMaxTableMiB,
// DefaultMaxPlies).
type JobLimits struct {
	Depth    int // plies of full-width search of either player
	TableMiB int // the searcher's transposition table, per game played at once
	Plies    int // the game's ply cap (a job's 0 is the 400-ply default)
}

// ErrBeyondLimits is wrapped by the refusal of a job larger than a
// worker's limits; it wraps ErrRefused.
var ErrBeyondLimits = fmt.Errorf("%w: beyond this worker's limits", ErrRefused)

// withDefaults returns l with its zero fields set to their defaults.
func (l JobLimits) withDefaults() JobLimits {
	if l.Depth == 0 {
		l.Depth = DefaultMaxDepth
	}
	if l.TableMiB == 0 {
		l.TableMiB = DefaultMaxTableMiB
	}
	if l.Plies == 0 {
		l.Plies = DefaultMaxPlies
	}
	return l
}

// Check reports whether the limits themselves can be met: every field 0
// (the default) or within the bounds of a job.
func (l JobLimits) Check() error {
	if l.Depth < 0 || l.TableMiB < 0 || l.Plies < 0 || l.TableMiB > maxTableMiB || l.Plies > maxPlies {
		return fmt.Errorf("cluster: worker limits depth %d, hash %d MiB, plies %d: want 0 (the default) or positive, hash at most %d, plies at most %d",
			l.Depth, l.TableMiB, l.Plies, maxTableMiB, maxPlies)
	}
	return nil
}

// allow returns nil for a job within l, else an error wrapping
// ErrBeyondLimits that names every limit the job exceeds.
func (l JobLimits) allow(j Job) error {
	l = l.withDefaults()
	plies := j.MaxPlies
	if plies == 0 {
		plies = 400 // the game's default cap
	}
	var over []string
	for _, p := range []WirePlayer{j.First, j.Second} {
		if p.Depth > l.Depth {
			over = append(over, fmt.Sprintf("depth %d (--max-depth %d)", p.Depth, l.Depth))
			break
		}
	}
	if j.TableMiB > l.TableMiB {
		over = append(over, fmt.Sprintf("table_mib %d (--max-hash %d)", j.TableMiB, l.TableMiB))
	}
	if plies > l.Plies {
		over = append(over, fmt.Sprintf("max_plies %d (--max-plies %d)", plies, l.Plies))
	}
	if len(over) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrBeyondLimits, strings.Join(over, ", "))
}

// deadline is the time a worker may spend on job j.
func deadline(j Job) time.Duration {
	if j.DeadlineMS <= 0 {
		return DefaultJobDeadline
	}
	return time.Duration(j.DeadlineMS) * time.Millisecond
}
