package tuning

import (
	"context"
	"fmt"
	"math"
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
		if seenLeft != nil {
			if games, _, ok := gamesLeft(cfg, p, played, known, perGeneration, time.Since(start), after); ok {
				seenLeft(p, known, games)
			}
		}
		progress.Set(p.Done)
	}
	var before []float64 // SPSA's theta at the start of the next block; nil: the start
	tuner.OnGeneration = func(g population.Generation) {
		after.closedGeneration(g, known)
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

// seenLeft, when not nil (in tests), sees each count of the games a run
// has left (gamesLeft) with the progress and the games known then.
var seenLeft func(p population.Progress, known int, games float64)

// later are the games a run plays after its tuning: its ladder's, at most
// its verification's, and what a verification game costs in games of the
// run's own search (its deeper search).
type later struct {
	tuning, ladder, verify int // tuning: the games the tuning plans, the yardstick's included
	verifyCost             float64
	// champions are the distinct champions (by weights) of the closed
	// generations, which the ladder will rate.
	champions map[string]bool
	// closed generations, with the run's games known when the last closed:
	// the games a generation takes, its yardstick's included, as played.
	closed, knownAtClose int
}

// closedGeneration counts g's champion for the ladder, and known games of
// the run as g closes.
func (l *later) closedGeneration(g population.Generation, known int) {
	for _, x := range g.Genomes {
		if x.ID == g.Best {
			l.champions[fmt.Sprint(x.Weights)] = true
		}
	}
	l.closed++
	l.knownAtClose = known
}

// tuningLeft are the games left of a tuning of gens generations (known:
// the run's games so far): as planned before the first generation closes,
// then at the games a generation took so far (a yardstick plays fewer
// games when the champion did not change).
func (l later) tuningLeft(gens, known int) int {
	if l.closed == 0 {
		return l.tuning - known
	}
	return int(math.Round(float64(gens)*float64(l.knownAtClose)/float64(l.closed))) - known
}

// ladderGames are the games the ladder will play: as planned before the
// first generation closes, then as many distinct champions as the run's
// generations (gens in all) give at the rate they came so far.
func (l later) ladderGames(cfg population.Config, gens int) int {
	if l.closed == 0 || l.ladder == 0 {
		return l.ladder
	}
	n := len(l.champions)
	projected := n + int(math.Ceil(float64(max(gens-l.closed, 0))*float64(n)/float64(l.closed)))
	return cfg.LadderGames(projected, l.tuning)
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
	l := later{tuning: tuning, verifyCost: 1, champions: map[string]bool{}}
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
// in elapsed), as gamesLeft counts the games; "" when it cannot tell, and
// in the run's first second, when its pace is one game's or two.
func runLeft(cfg population.Config, p population.Progress, played, known, perGeneration int, elapsed time.Duration, after later) string {
	games, verify, ok := gamesLeft(cfg, p, played, known, perGeneration, elapsed, after)
	if !ok || elapsed < time.Second {
		return ""
	}
	rate := float64(played) / max(elapsed.Seconds(), 1e-9)
	seconds := func(games float64) string {
		return time.Duration(games / rate * float64(time.Second)).Round(time.Second).String()
	}
	text := "run about " + seconds(games) + " left"
	if verify > 0 {
		text += ", then up to " + seconds(verify) + " for the verification"
	}
	return text
}

// gamesLeft counts the games the run has left, in games of its own search,
// as progress p reports it (known games of the run found in the store or
// played), every stage counted: with a games budget the budget's games
// left (its ladder's included); with a time budget the batch's games left,
// those of the generations the pace gives (perGeneration games each, 0
// unknown) and the ladder's; else the tuning's planned games left (the
// yardstick's included) and the ladder's; in the ladder, its games left.
// The verification is counted apart (verify), since its SPRT may stop it
// sooner: at most its games, each after.verifyCost games. Not ok before the
// first game, nor before the first generation's size is known.
func gamesLeft(cfg population.Config, p population.Progress, played, known, perGeneration int, elapsed time.Duration, after later) (games, verify float64, ok bool) {
	if played == 0 || (perGeneration == 0 && p.Stage != population.StageLadder && p.Stage != population.StageVerify) {
		return 0, 0, false
	}
	verify = float64(after.verify) * after.verifyCost
	batch := max(p.Total-p.Done, 0)
	switch budget, _ := cfg.TimeBudget(); {
	case p.Stage == population.StageVerify:
		return float64(batch) * after.verifyCost, 0, true
	case p.Stage == population.StageLadder:
		games = float64(batch)
	case cfg.BudgetGames > 0:
		games = float64(max(cfg.BudgetGames-known, 0))
	case budget > 0:
		gens := cfg.ExpectedGenerations(p.Generation, known, elapsed.Seconds())
		games = float64(batch+max(gens-p.Generation-1, 0)*perGeneration) + float64(after.ladderGames(cfg, gens))
	default:
		gens := cfg.PlannedGenerations()
		games = float64(max(after.tuningLeft(gens, known), batch)) + float64(after.ladderGames(cfg, gens))
	}
	return games, verify, true
}
