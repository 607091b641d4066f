package tuning

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
)

// refreshEvery is the least time between two refreshes of a running
// job's report: drawing its plots as PNG and SVG costs about 30 ms, which
// took 89% of an SPSA run's time on tic-tac-toe when done after each of
// its small generations. The report is refreshed after the first
// generation, then at most this often, and when the job ends (Tune).
const refreshEvery = 30 * time.Second

// refresh redraws a run's report (reports.Refresh); tests count its calls.
var refresh = reports.Refresh

// watch shows the progress of tuner, a run of plan begun at start whose
// games runner plays: at once a line saying what the run does
// (planLine); a bar per batch of games on a terminal, or a line at a
// batch's first game and every progressInterval, with the time the batch
// and the run have left; and a line per generation (generationLine), after
// which the running time is recorded in run and its report refreshed (at
// most every refreshEvery).
// Failures to do either are noted unless quiet.
func watch(tuner *population.Tuner, plan *population.Plan, run *results.Run, runner any, progress *reports.Progress, start time.Time, quiet bool) {
	cfg := plan.Config()
	progress.Line(planLine(plan, run.Dir(), workersOf(runner)))
	progress.Interval = progressInterval
	played, known, stage, stageGen, perGeneration := 0, 0, "", -1, 0
	after := laterStages(plan)
	var refreshed time.Time // the report's last refresh: none yet
	tuner.OnGame = func(p population.Progress) {
		known++
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
			case population.StageVerify:
				label = "verify"
			default:
				perGeneration = max(perGeneration, p.Total)
			}
			progress.Start(label, p.Total)
		}
		progress.Note(runLeft(cfg, p, played, known, perGeneration, time.Since(start), after))
		progress.Set(p.Done)
	}
	var before []float64 // SPSA's theta at the start of the next block; nil: the start
	tuner.OnGeneration = func(g population.Generation) {
		rate := 0.0 // no rate for generations a resume replays, or before a second of play
		if secs := time.Since(start).Seconds(); played > 0 && secs >= 1 {
			rate = float64(played) / secs
		}
		progress.Line(generationLine(cfg, plan.Evaluator(), before, g, rate))
		before = g.Mean
		if err := run.RecordTime(); err != nil && !quiet {
			progress.Line("could not record the running time: " + err.Error())
		}
		if time.Since(refreshed) < refreshEvery {
			return
		}
		refreshed = time.Now()
		if err := refresh(run.Dir()); err != nil && !quiet {
			progress.Line("could not refresh the plots: " + err.Error())
		}
	}
}

// generationLine describes a closed generation g of a run of cfg tuning
// ev, which plays rate games a second (0: not known, as for a generation a
// resume replays from the store, or in the run's first second): in its tuner's own terms
// (reports.Terms; before is the weights the generation began from, nil
// for the first), its yardstick and why the run stopped there.
func generationLine(cfg population.Config, ev *games.Evaluator, before []float64, g population.Generation, rate float64) string {
	line := cfg.GenerationOf(g.Index) + ": " + reports.Terms(cfg, ev, before, g)
	if y := g.Yardstick; y != nil {
		line += ", yardstick " + reports.EloInterval(y.Elo, y.EloLow, y.EloHigh)
		names := cfg.OpponentNames()
		for o, r := range y.VsOpponents {
			if o < len(names) {
				line += fmt.Sprintf(", vs %s %.3f (%d-%d-%d)", names[o], r.Score(), r.Wins, r.Draws, r.Losses)
			}
		}
	}
	if g.Stop != "" && g.Stop != population.StopGenerations {
		line += ", stopped: " + cfg.StopText(g.Stop)
	}
	if rate > 0 {
		line += fmt.Sprintf(", %.1f games/s", rate)
	}
	return line
}

// progressInterval is how often a run's progress is printed as a line
// when its output is not a terminal.
const progressInterval = 5 * time.Second

// workersOf is the number of workers of a runner that says (the local
// pool), 0 otherwise.
func workersOf(runner any) int {
	if w, ok := runner.(interface{ Workers() int }); ok {
		return w.Workers()
	}
	return 0
}

// planLine says what a run of plan in dir does, before its first game:
// game, evaluator, method, length, search, budget and workers.
func planLine(plan *population.Plan, dir string, workers int) string {
	cfg := plan.Config()
	line := fmt.Sprintf("run %s: %s, evaluator %s (%d weights), %s, %d %ss", dir, cfg.Game, plan.Evaluator().Name,
		len(plan.Evaluator().Features), cfg.Algo, cfg.PlannedGenerations(), cfg.GenerationName())
	line += ", " + plan.LimitText()
	switch {
	case cfg.BudgetGames > 0 && cfg.BudgetTime != "":
		line += fmt.Sprintf(", budget %d games or %s", cfg.BudgetGames, cfg.BudgetTime)
	case cfg.BudgetGames > 0:
		line += fmt.Sprintf(", budget %d games", cfg.BudgetGames)
	case cfg.BudgetTime != "":
		line += ", budget " + cfg.BudgetTime
	}
	if n := len(cfg.Opponents); n > 0 {
		line += fmt.Sprintf(", against %s", strings.Join(cfg.OpponentNames(), ", "))
	}
	if workers > 0 {
		line += fmt.Sprintf(", %d workers", workers)
	}
	return line
}

// later are the games a run plays after its tuning: its ladder's, at most
// its verification's, and what a verification game costs in games of the
// run's own search (its deeper search).
type later struct {
	ladder, verify int
	verifyCost     float64
}

// laterStages are the stages of a run of plan after its tuning. A
// verification game's cost is measured once, before the first game: the
// nodes of searches to the verification's limits over those to the run's,
// on calibrationPositions (a search of the start alone once said 3.6 for
// Othello at depth 6 and 8, where the verification played at a tenth of
// the run's pace); 1 for a run tuning an external engine, whose search is
// its own.
func laterStages(plan *population.Plan) later {
	cfg := plan.Config()
	tuning := cfg.PlannedTuningGames(plan.Evaluator())
	if b := cfg.TuningBudget(); b > 0 {
		tuning = min(tuning, b)
	}
	l := later{verifyCost: 1}
	l.ladder, l.verify = cfg.AfterTuning(tuning)
	if l.verify == 0 || cfg.TuneEngine != "" {
		return l
	}
	own, deep := engine.Limits{Depth: cfg.Depth, Nodes: cfg.Nodes}, cfg.VerifyLimits()
	ev := plan.Evaluator()
	s, err := engine.New(engine.Options{TableMiB: 4})
	if err != nil {
		return l
	}
	var a, b int64
	for _, p := range calibrationPositions(plan.Game(), cfg.Seed) {
		for _, x := range []struct {
			lim   engine.Limits
			nodes *int64
		}{{own, &a}, {deep, &b}} {
			s.NewGame()
			if res, err := s.Search(context.Background(), p, ev, ev.Defaults(), x.lim); err == nil {
				*x.nodes += res.Stats.Nodes
			}
		}
	}
	if a > 0 && b > a {
		l.verifyCost = float64(b) / float64(a)
	}
	return l
}

// calibrationPositions are the positions laterStages measures on: the
// game's start and every 8th position of one game of random moves drawn
// from seed, up to ply 40 or the game's end.
func calibrationPositions(g games.Game, seed uint64) []games.Position {
	rng := rand.New(rand.NewPCG(seed, 0x7e11))
	p := g.Start()
	var out []games.Position
	var buf []games.Move
	for ply := 0; ply <= 40; ply++ {
		moves, outcome := p.Moves(buf[:0])
		if outcome != games.Ongoing || len(moves) == 0 {
			break
		}
		if ply%8 == 0 {
			out = append(out, p.Clone())
		}
		buf = moves
		p.Play(moves[rng.IntN(len(moves))])
	}
	return out
}

// runLeft says how long the run has left at the pace so far (played games
// in elapsed, known games of the run found in the store or played) as
// progress p reports it, counting every stage the run will play: with a
// games budget the budget's games left (its ladder's included), else the
// batch's games left, those of the generations after it (perGeneration
// games each, 0 unknown) and the ladder's; in the ladder, its games left;
// then, said apart since its SPRT may stop it sooner, at most the
// verification's games, each after.verifyCost games at the run's pace. ""
// before the first game and in the run's first second, when its pace is
// not known yet.
func runLeft(cfg population.Config, p population.Progress, played, known, perGeneration int, elapsed time.Duration, after later) string {
	if played == 0 || elapsed < time.Second || (perGeneration == 0 && p.Stage != population.StageLadder && p.Stage != population.StageVerify) {
		return ""
	}
	rate := float64(played) / max(elapsed.Seconds(), 1e-9)
	verify := float64(after.verify) * after.verifyCost
	var games float64
	switch {
	case p.Stage == population.StageVerify:
		games, verify = float64(max(p.Total-p.Done, 0))*after.verifyCost, 0
	case p.Stage == population.StageLadder:
		games = float64(max(p.Total-p.Done, 0))
	case cfg.BudgetGames > 0:
		games = float64(max(cfg.BudgetGames-known, 0))
	default:
		gens := cfg.ExpectedGenerations(p.Generation, known, elapsed.Seconds())
		games = float64(max(p.Total-p.Done, 0)+max(gens-p.Generation-1, 0)*perGeneration) + float64(after.ladder)
	}
	seconds := func(games float64) string {
		return time.Duration(games / rate * float64(time.Second)).Round(time.Second).String()
	}
	text := "run about " + seconds(games) + " left"
	if verify > 0 {
		text += ", then up to " + seconds(verify) + " for the verification"
	}
	return text
}
