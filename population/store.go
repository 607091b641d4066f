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
	Genome               int
	stats.WDL                    // from the genome's point of view
	Score                float64 // points per game
	Elo, EloLow, EloHigh float64 // 95% interval
}

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
}

// MemoryStore is a Store in memory, safe for concurrent use.
type MemoryStore struct {
	mu          sync.Mutex
	games       map[GameKey]GameResult
	Generations []Generation
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

// Games returns the number of games held.
func (m *MemoryStore) Games() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.games)
}
