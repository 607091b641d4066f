// Package learn makes evaluators with tables from positions: self-play
// games played on a tournament.Runner (the local pool or the cluster's
// workers), their positions labelled by the games' results (exact from where
// the engine solved the endgame), a sparse logistic fit of the tables over
// millions of positions on every core, and rounds that alternate the two,
// each round's weights kept only when they beat the last round's in a
// pentanomial SPRT. The fit is the one fit of evaluations to results in
// gametune: population's Texel tuner fits a few weights through it too
// (fit_lbfgs.go).
package learn

import (
	"fmt"
	"math"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
)

// Game is one game of a Set: its moves from the game's start position (the
// opening's plies included), or from From, its result and, where the
// players said them, their scores.
type Game struct {
	// From, when not nil, is where the game began instead of the game's
	// start (an opening position of a tuning run); Each replays a clone
	// of it. A game with a From and no moves is that one position,
	// labelled by Result (a position of a file of labelled positions).
	// The positions file holds no such games: it keeps moves from the
	// start alone.
	From  games.Position
	Moves []games.Move
	// Result is the first player's score: 1 a win, 0.5 a draw, 0 a loss.
	Result float64
	// Scores, when not nil, holds a score per move: the mover's search
	// score of the position before it, from the mover's point of view, in
	// the evaluator's units, or NoScore where it said none (the random
	// plies of an opening). Nil for games without scores: those of a
	// positions file written before scores were kept, or played on the
	// cluster's workers.
	Scores []int32
}

// NoScore stands in Game.Scores for a move its mover gave no score.
const NoScore = math.MinInt32

// MaxScore bounds the magnitude of a stored score: past every evaluation
// and mate score of the engine.
const MaxScore = 1 << 30

// Set is a collection of games of one game, the positions a fit learns
// from: every position of every game before its end, labelled with the
// game's result from the side to move's point of view.
type Set struct {
	Game  games.Game
	Games []Game
	// Lambda, between 0 and 1, is the share of a label taken from the
	// mover's search score where its game has one (Game.Scores), the rest
	// from the result: (1-Lambda)*result + Lambda*sigmoid(K*score), K the
	// fit's logistic scale fitted on the results alone. A game's result
	// says who won in the end, after every later mistake; the score is
	// what a search of the position itself saw. Stockfish's trainers call
	// this share lambda. 0: the result alone.
	Lambda float64
}

// Label is the result of a game from the point of view of the side to move
// in one of its positions.
func Label(result float64, turn games.Side) float64 {
	if turn == games.First {
		return result
	}
	return 1 - result
}

// Each replays games[from:to) of s and calls each with every position
// before the game's end (the position is the replay's own: each must not
// keep it, nor change it), its label (Label) and the mover's score of it
// (Game.Scores; NaN where there is none). A replay stops at the first
// error of each, or at an illegal move, which is an error naming the game
// and the ply.
func (s *Set) Each(from, to int, each func(p games.Position, label, score float64) error) error {
	var buf []games.Move
	for i := from; i < to; i++ {
		g := s.Games[i]
		p := s.Game.Start()
		if g.From != nil {
			p = g.From.Clone()
			if len(g.Moves) == 0 {
				if err := eachAlone(p, g.Result, each); err != nil {
					return err
				}
				continue
			}
		}
		for ply, m := range g.Moves {
			var out games.Outcome
			buf, out = p.Moves(buf[:0])
			if out != games.Ongoing {
				return fmt.Errorf("learn: game %d ends at ply %d before its move %d", i, ply, ply+1)
			}
			if !legal(buf, m) {
				return fmt.Errorf("learn: game %d: move %d (%d) is not legal", i, ply+1, m)
			}
			score := math.NaN()
			if ply < len(g.Scores) && g.Scores[ply] != NoScore {
				score = float64(g.Scores[ply])
			}
			if err := each(p, Label(g.Result, p.Turn()), score); err != nil {
				return err
			}
			p.Play(m)
		}
	}
	return nil
}

// eachAlone calls each with a game that is one position p, result its
// first player's result, unless the game is over there.
func eachAlone(p games.Position, result float64, each func(p games.Position, label, score float64) error) error {
	if _, out := p.Moves(nil); out != games.Ongoing {
		return nil
	}
	return each(p, Label(result, p.Turn()), math.NaN())
}

func legal(moves []games.Move, m games.Move) bool {
	for _, x := range moves {
		if x == m {
			return true
		}
	}
	return false
}

// Start resolves where a fit of evaluator starts: "empty" (from scratch:
// every table entry 0, the weights the evaluator's Scratch, or every scale
// 1 and every scalar 0 without it), else a built-in spec as
// tournament.BuiltinWeights reads it ("default", or a weights file).
func Start(g games.Game, evaluator, start string) (*games.Evaluator, []float64, error) {
	if start != "empty" {
		return tournament.BuiltinWeights(g, evaluator, start)
	}
	ev, err := games.FindEvaluator(g, evaluator)
	if err != nil {
		return nil, nil, err
	}
	if ev.Bind == nil {
		return nil, nil, fmt.Errorf("%w: evaluator %q has no tables to start empty (evaluators of %s with tables: %s)", ErrConfig, ev.Name, g.Name(), games.TableEvaluators(g))
	}
	empty, err := ev.WithData(make([]float32, ev.TablesSize()))
	if err != nil {
		return nil, nil, err
	}
	w := make([]float64, len(ev.Features))
	for i := range w {
		if ev.IsScale(i) {
			w[i] = 1
		}
	}
	if len(ev.Scratch) == len(w) {
		copy(w, ev.Scratch)
	}
	return empty, w, empty.Check(w)
}
