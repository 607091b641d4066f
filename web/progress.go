package web

import (
	"math"
	"time"

	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
)

// setProgress sets how far the run r is, in games, whatever its tuner:
// GamesPlanned, the games it is expected to play in all
// (population.Config.ExpectedGames: its budget, or the games of its
// length), and for a running run its ETA, when the games left are played
// at GamesPerSecond (or, before a rate is known, when its generations
// left close at perGen seconds each). A finished run has done what it
// planned: Done of Done generations, Games of Games.
func (s *Summary) setProgress(r *reports.Run, perGen float64, now time.Time) {
	in := r.Info
	if in.Status == results.StatusDone {
		s.Planned, s.GamesPlanned = s.Done, s.Games
		return
	}
	s.GamesPlanned = r.Config.ExpectedGames(r.Evaluator, in.Games, in.Seconds)
	if in.Status != results.StatusRunning {
		return
	}
	left := math.NaN()
	if rate := float64(s.GamesPerSecond); rate > 0 && !math.IsInf(rate, 0) && s.GamesPlanned > 0 {
		left = float64(s.GamesPlanned-s.Games) / rate
	} else if !math.IsNaN(perGen) && s.Planned > s.Done {
		left = perGen * float64(s.Planned-s.Done)
	}
	if !math.IsNaN(left) {
		s.ETA = now.UTC().Add(time.Duration(left * float64(time.Second))).Truncate(time.Second)
	}
}
