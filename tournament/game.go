package tournament

import (
	"context"
	"fmt"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
)

// Player is one side of a game: an evaluator with its weights and the
// search limits it plays with.
type Player struct {
	Name      string
	Evaluator *games.Evaluator
	Weights   []float64
	Limits    engine.Limits
}

// Adjudication ends games early when both engines agree. The zero value
// adjudicates nothing.
type Adjudication struct {
	// A game is drawn when, after DrawAfter plies, both engines' scores stay
	// within ±DrawMargin for DrawPlies consecutive plies (0 = off).
	DrawAfter  int
	DrawMargin int
	DrawPlies  int
	// A game is won when both engines agree one side is behind by more than
	// ResignMargin for ResignPlies consecutive plies (0 = off).
	ResignMargin int
	ResignPlies  int
}

// Reason says why a game ended.
type Reason string

const (
	ByRule          Reason = "rule"         // the game's own rules ended it
	ByAdjudication  Reason = "adjudication" // both engines agreed on a draw
	ByResignation   Reason = "resignation"  // both engines agreed one side was lost
	ByPlyCap        Reason = "ply-cap"      // the ply cap was reached: a draw
	ByInterruption  Reason = "interrupted"  // the context was cancelled (not recorded as a result)
	defaultMaxPlies        = 400
)

// GameSpec describes one game completely: the same spec always gives the
// same game, whatever worker plays it.
type GameSpec struct {
	Game    games.Game
	Opening string // position in the game's notation; "" is the start
	First   Player // plays games.First (black in Othello and checkers, white in chess)
	Second  Player // plays games.Second
	Seed    uint64 // reserved for random choices inside a game; engines are deterministic
	// MaxPlies ends the game drawn after this many plies; 0 means 400.
	MaxPlies     int
	Adjudication Adjudication
}

// Record is the result of one game.
type Record struct {
	Outcome  games.Outcome
	Reason   Reason
	Opening  string   // the opening position, in the game's notation
	Moves    []string // the moves played from the opening, in the game's notation
	Plies    int
	Nodes    int64 // nodes searched by both engines
	Duration time.Duration
}

// Score returns the points of the first side: 1 for a win, 0.5 for a draw.
func (r Record) Score() float64 {
	switch r.Outcome {
	case games.FirstWins:
		return 1
	case games.SecondWins:
		return 0
	}
	return 0.5
}

// Play plays one game with searcher s (cleared first, so the game depends on
// spec alone). When ctx is cancelled it returns ctx's error and a record
// marked ByInterruption.
func Play(ctx context.Context, s *engine.Searcher, spec GameSpec) (Record, error) {
	start := time.Now()
	p := spec.Game.Start()
	if spec.Opening != "" {
		var err error
		if p, err = spec.Game.ParsePosition(spec.Opening); err != nil {
			return Record{}, fmt.Errorf("tournament: opening %q: %w", spec.Opening, err)
		}
	}
	for _, pl := range []Player{spec.First, spec.Second} {
		if pl.Evaluator == nil {
			return Record{}, fmt.Errorf("tournament: player %q has no evaluator", pl.Name)
		}
		if len(pl.Weights) != len(pl.Evaluator.Features) {
			return Record{}, fmt.Errorf("tournament: player %q: %d weights for %d features", pl.Name, len(pl.Weights), len(pl.Evaluator.Features))
		}
	}
	maxPlies := spec.MaxPlies
	if maxPlies <= 0 {
		maxPlies = defaultMaxPlies
	}
	rec := Record{Opening: p.String()}
	s.NewGame()
	adj := spec.Adjudication
	drawRun, resignRun, resignSign := 0, 0, 0
	var buf []games.Move
	for {
		moves, outcome := p.Moves(buf[:0])
		buf = moves
		if outcome != games.Ongoing {
			rec.Outcome, rec.Reason = outcome, ByRule
			break
		}
		if rec.Plies >= maxPlies {
			rec.Outcome, rec.Reason = games.Draw, ByPlyCap
			break
		}
		pl := spec.First
		if p.Turn() == games.Second {
			pl = spec.Second
		}
		res, err := s.Search(ctx, p, pl.Evaluator, pl.Weights, pl.Limits)
		rec.Nodes += res.Stats.Nodes
		if err != nil {
			rec.Reason, rec.Duration = ByInterruption, time.Since(start)
			return rec, err
		}
		// Scores from the first side's point of view, for adjudication.
		score := res.Score
		if p.Turn() != games.First {
			score = -score
		}
		rec.Moves = append(rec.Moves, p.FormatMove(res.Move))
		p.Play(res.Move)
		rec.Plies++

		if adj.DrawPlies > 0 && rec.Plies > adj.DrawAfter && abs(score) <= adj.DrawMargin {
			drawRun++
		} else {
			drawRun = 0
		}
		if adj.ResignPlies > 0 && abs(score) > adj.ResignMargin && (resignRun == 0 || sign(score) == resignSign) {
			resignRun++
			resignSign = sign(score)
		} else {
			resignRun = 0
		}
		if adj.DrawPlies > 0 && drawRun >= adj.DrawPlies {
			rec.Outcome, rec.Reason = games.Draw, ByAdjudication
			break
		}
		if adj.ResignPlies > 0 && resignRun >= adj.ResignPlies {
			rec.Outcome, rec.Reason = games.SecondWins, ByResignation
			if resignSign > 0 {
				rec.Outcome = games.FirstWins
			}
			break
		}
	}
	rec.Duration = time.Since(start)
	return rec, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	if x < 0 {
		return -1
	}
	return 1
}
