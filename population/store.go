package population

import (
	"fmt"
	"sync"

	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
)

// Stage names the kind of game a key refers to.
const (
	StageGeneration = "gen"  // games between genomes of a generation
	StageYardstick  = "yard" // the best genome against the default weights
	StageKnockout   = "ko"   // games of a knockout round's bracket
)

// GameKey is the place of a game in a run. Every game's seed and opening
// derive from it, so a game is the same whenever and wherever it is played.
type GameKey struct {
	Stage      string
	Generation int // generation or knockout round
	Index      int // game number within the stage of that generation
}

func (k GameKey) String() string { return fmt.Sprintf("%s/%d/%d", k.Stage, k.Generation, k.Index) }

// GameResult is a finished game as a tuner records it.
type GameResult struct {
	Key    GameKey
	First  int // genome id of the first side's player; DefaultsID for the evaluator's defaults
	Second int
	Record tournament.Record
}

// DefaultsID stands for the evaluator's default weights in game results.
const DefaultsID = -1

// Yardstick is a match of a generation's best genome against the
// evaluator's default weights: fitness inside a population is relative, the
// yardstick shows progress.
type Yardstick struct {
	Genome    int
	stats.WDL         // against the defaults, from the genome's point of view
	Score     float64 // points per game against the defaults
	// Elo with its 95% interval: the genome's rating, the defaults being
	// 0, fitted to every yardstick game of the run so far (against the
	// defaults and between successive champions), so that it keeps rising
	// with the champions after they beat the defaults every time.
	Elo, EloLow, EloHigh float64
	// Previous is the champion measured before (NoGenome for none, or when
	// it had the same weights) and VsPrevious the genome's games against it.
	Previous   int
	VsPrevious stats.WDL
	// VsOpponents are the genome's games against each of the run's
	// opponents (OpponentConfig), in the config's order; nil without.
	VsOpponents []stats.WDL
}

// NoGenome marks a missing genome (no previous champion).
const NoGenome = -4

// Generation summarises one generation (genetic) or round (knockout).
type Generation struct {
	Index     int
	Genomes   []Genome // with fitness and records
	Mean, Std []float64
	Diversity float64 // mean normalised distance between genomes
	Best      int     // id of the best genome (the knockout winner)
	// Fitness of the best, the mean and the worst genome.
	BestFitness, MeanFitness, WorstFitness float64
	Distance                               float64                   // knockout: normalised distance from the previous winner
	Matches                                []tournament.BracketMatch // knockout: the bracket, with genome ids
	Yardstick                              *Yardstick                // nil when not measured this generation
	Spent                                  int                       // the run's games up to the end of this generation (every stage)
	Stop                                   string                    // why the run ended after this generation: "", StopGenerations, StopConverged, StopBudgetGames or StopBudgetTime
	Converged                              bool                      // the stopping criterion was met after this generation
}

// Store is what a tuner needs from a run store: it records every game the
// moment it finishes and every generation as it closes, and gives back
// recorded games so that a resumed run replays nothing. The results package
// implements it on SQLite; MemoryStore implements it in memory.
type Store interface {
	// Game returns the recorded game at key, if any.
	Game(key GameKey) (GameResult, bool, error)
	RecordGame(r GameResult) error
	// RecordGeneration records a closed generation, replacing any earlier
	// record of the same index (a resumed run records it again, identical).
	RecordGeneration(g Generation) error
	// RecordedStop returns the Stop recorded with generation index, and
	// whether that generation was recorded at all: a run that ended on its
	// time budget ends there again when resumed, whatever the clock says.
	RecordedStop(index int) (stop string, recorded bool, err error)
	// RecordLadder records the run's ladder, replacing any earlier one.
	RecordLadder(l Ladder) error
	// RecordVerification records the run's verification, replacing any
	// earlier one.
	RecordVerification(v Verification) error
}

// Why a run ended after a generation (Generation.Stop).
const (
	StopGenerations = "generations"  // the last generation (or round) configured
	StopConverged   = "converged"    // the convergence criterion was met
	StopBudgetGames = "budget-games" // the games budget was spent
	StopBudgetTime  = "budget-time"  // the time budget was spent
)

// StopText says in words why a run of c ended (a Stop value): "its 35
// generations played", "converged", "the games budget spent", "the time
// budget spent"; "" for "".
func (c Config) StopText(stop string) string {
	switch stop {
	case StopGenerations:
		return fmt.Sprintf("its %d %ss played", c.PlannedGenerations(), c.GenerationName())
	case StopConverged:
		return "converged"
	case StopBudgetGames:
		return "the games budget spent"
	case StopBudgetTime:
		return "the time budget spent"
	}
	return stop
}

// MemoryStore is a Store in memory, safe for concurrent use.
type MemoryStore struct {
	mu          sync.Mutex
	games       map[GameKey]GameResult
	Generations []Generation
	Ladder      *Ladder
	Verify      *Verification
	// Played counts the games recorded (not those found already recorded).
	Played int
}

// NewMemoryStore returns an empty store.
func NewMemoryStore() *MemoryStore { return &MemoryStore{games: map[GameKey]GameResult{}} }

func (m *MemoryStore) Game(key GameKey) (GameResult, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.games[key]
	return r, ok, nil
}

func (m *MemoryStore) RecordGame(r GameResult) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.games[r.Key] = r
	m.Played++
	return nil
}

func (m *MemoryStore) RecordGeneration(g Generation) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.Generations {
		if m.Generations[i].Index == g.Index {
			m.Generations[i] = g
			return nil
		}
	}
	m.Generations = append(m.Generations, g)
	return nil
}

func (m *MemoryStore) RecordedStop(index int) (string, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, g := range m.Generations {
		if g.Index == index {
			return g.Stop, true, nil
		}
	}
	return "", false, nil
}

func (m *MemoryStore) RecordLadder(l Ladder) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.Ladder = &l
	return nil
}

func (m *MemoryStore) RecordVerification(v Verification) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.Verify = &v
	return nil
}

// Games returns the number of games held.
func (m *MemoryStore) Games() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.games)
}
