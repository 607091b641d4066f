package tuning

import (
	"fmt"
	"time"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
)

// watch shows the progress of tuner, a run of cfg begun at start: a bar
// per batch of games and a line per generation (generationLine), after
// which the running time is recorded in run and its report refreshed.
// Failures to do either are noted unless quiet.
func watch(tuner *population.Tuner, cfg population.Config, run *results.Run, progress *reports.Progress, start time.Time, quiet bool) {
	played, stage, stageGen := 0, "", -1
	tuner.OnGame = func(p population.Progress) {
		if p.Played {
			played++
		}
		if p.Stage != stage || p.Generation != stageGen {
			stage, stageGen = p.Stage, p.Generation
			label := cfg.GenerationOf(p.Generation)
			switch p.Stage {
			case population.StageYardstick:
				label = "yardstick, " + label
			case population.StageLadder:
				label = "ladder"
			}
			progress.Start(label, p.Total)
		}
		progress.Set(p.Done)
	}
	tuner.OnGeneration = func(g population.Generation) {
		rate := float64(played) / max(time.Since(start).Seconds(), 1e-9)
		progress.Line(generationLine(cfg, g, rate))
		if err := run.RecordTime(); err != nil && !quiet {
			progress.Line("could not record the running time: " + err.Error())
		}
		if err := reports.Refresh(run.Dir()); err != nil && !quiet {
			progress.Line("could not refresh the plots: " + err.Error())
		}
	}
}

// generationLine describes a closed generation g of a run of cfg, which
// plays rate games a second: its best and fitness, its diversity (and a
// knockout winner's move), its yardstick and why the run stopped there.
func generationLine(cfg population.Config, g population.Generation, rate float64) string {
	line := fmt.Sprintf("%s: best %d fitness %.3f (mean %.3f), diversity %.3f", cfg.GenerationOf(g.Index), g.Best, g.BestFitness, g.MeanFitness, g.Diversity)
	if cfg.Algo == population.Knockout {
		line += fmt.Sprintf(", moved %.3f", g.Distance)
	}
	if y := g.Yardstick; y != nil {
		line += ", yardstick " + reports.EloInterval(y.Elo, y.EloLow, y.EloHigh)
	}
	if g.Stop != "" && g.Stop != population.StopGenerations {
		line += ", stopped: " + g.Stop
	}
	return line + fmt.Sprintf(", %.1f games/s", rate)
}
