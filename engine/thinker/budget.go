package thinker

import (
	"fmt"
	"math"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
)

// DefaultMoveOverhead is kept back from every move's time unless a GUI
// says otherwise (UCI's Move Overhead option): the process's reading,
// writing, the operating system's scheduling (a loaded machine can hold a
// process back for tens of milliseconds) and the search's check of its
// deadline. games.MaxMoveOverhead is the most a GUI may ask for.
const DefaultMoveOverhead = 10 * time.Millisecond

// TimeParams are the constants of the clock use, each an integer so that
// a GUI sets it as a UCI spin option and a tuner moves it in steps of one
// (TimeParamList gives each one's name, range and doc). Shares and ratios
// are in thousandths. The zero value is not usable: start from
// DefaultTimeParams.
type TimeParams struct {
	Horizon     int // moves the clock is shared over in sudden death
	BareHorizon int // the same when the increment does not pay the move overhead
	HardRatio   int // the hard limit over the soft limit, in thousandths
	HardShare   int // the most of the usable clock one move may take, in thousandths
	ChangeBonus int // the soft limit's extension per recent change of the best move, in thousandths
	DropBonus   int // the soft limit's extension for a score drop of DropUnits or more, in thousandths
	DropUnits   int // the score drop, in the evaluation's units, that earns the whole DropBonus
	Growth      int // the next iteration's time over the last's when the node counts cannot tell yet, in thousandths
}

// TimeParam describes one field of TimeParams, as engine.SearchParamList
// describes the search's: its name (a UCI option's), a line of doc, the
// default and the range, in steps of Step.
type TimeParam struct {
	Name, Doc               string
	Default, Min, Max, Step int

	field func(*TimeParams) *int
}

// timeParams is the one list of the clock use's constants.
var timeParams = []TimeParam{
	{Name: "time-horizon", Default: 16, Min: 5, Max: 100, Step: 1, field: func(p *TimeParams) *int { return &p.Horizon },
		Doc: "moves the clock (plus their increments) is shared over in sudden death, or fewer when the next time control is nearer: the soft limit is that share"},
	{Name: "time-bare-horizon", Default: 40, Min: 5, Max: 200, Step: 1, field: func(p *TimeParams) *int { return &p.BareHorizon },
		Doc: "time-horizon when the increment is below the move overhead (no increment): each move then costs the clock, so it must last longer"},
	{Name: "time-hard-ratio", Default: 3000, Min: 1000, Max: 10000, Step: 100, field: func(p *TimeParams) *int { return &p.HardRatio },
		Doc: "the hard limit, at which a search is stopped, as thousandths of the soft limit"},
	{Name: "time-hard-share", Default: 400, Min: 50, Max: 900, Step: 10, field: func(p *TimeParams) *int { return &p.HardShare },
		Doc: "the most one move may take, as thousandths of the clock left less the move overhead"},
	{Name: "time-change-bonus", Default: 500, Min: 0, Max: 3000, Step: 50, field: func(p *TimeParams) *int { return &p.ChangeBonus },
		Doc: "thousandths of the soft limit added per change of the best move between iterations (each earlier change counts half as much per iteration)"},
	{Name: "time-drop-bonus", Default: 500, Min: 0, Max: 3000, Step: 50, field: func(p *TimeParams) *int { return &p.DropBonus },
		Doc: "thousandths of the soft limit added when the score is time-drop-units or more below the previous move's (in proportion below that)"},
	{Name: "time-drop-units", Default: 100, Min: 1, Max: 10000, Step: 10, field: func(p *TimeParams) *int { return &p.DropUnits },
		Doc: "the score drop from the previous move, in the evaluation's units (centipawns in chess), that earns the whole time-drop-bonus"},
	{Name: "time-growth", Default: 4000, Min: 1000, Max: 20000, Step: 250, field: func(p *TimeParams) *int { return &p.Growth },
		Doc: "thousandths of the last iteration's time the next is predicted to take before two iterations' node counts give the ratio"},
}

// TimeParamList describes the clock use's constants, in a fixed order.
func TimeParamList() []TimeParam { return append([]TimeParam(nil), timeParams...) }

// Tunable lists what a tuner may set on the engine for the game of p
// besides the evaluation's weights, as features: the search parameters
// the game uses (engine.SearchParamsUsed), then the clock-use constants.
func Tunable(p games.Position) []games.Feature {
	var out []games.Feature
	for _, sp := range engine.SearchParamsUsed(p) {
		out = append(out, sp.Feature())
	}
	for _, tp := range timeParams {
		out = append(out, games.Feature{Name: tp.Name, Doc: tp.Doc, Default: float64(tp.Default),
			Min: float64(tp.Min), Max: float64(tp.Max), Step: float64(tp.Step)})
	}
	return out
}

// DefaultTimeParams returns the default of every constant.
func DefaultTimeParams() TimeParams {
	var p TimeParams
	for _, d := range timeParams {
		*d.field(&p) = d.Default
	}
	return p
}

// Get returns the value of the constant named name, and false when there
// is none of that name.
func (p TimeParams) Get(name string) (int, bool) {
	for _, d := range timeParams {
		if d.Name == name {
			return *d.field(&p), true
		}
	}
	return 0, false
}

// Set makes v the value of the constant named name, or says why not: no
// such name, or v out of its range.
func (p *TimeParams) Set(name string, v int) error {
	for _, d := range timeParams {
		if d.Name != name {
			continue
		}
		if v < d.Min || v > d.Max {
			return fmt.Errorf("%s %d: want %d to %d", name, v, d.Min, d.Max)
		}
		*d.field(p) = v
		return nil
	}
	return fmt.Errorf("no time parameter %q (have %s)", name, timeParamNames())
}

func timeParamNames() string {
	s := ""
	for i, d := range timeParams {
		if i > 0 {
			s += ", "
		}
		s += d.Name
	}
	return s
}

// Budget is the time of one move: the search aims at Soft and is stopped
// at Hard, whatever happens.
type Budget struct {
	Soft, Hard time.Duration
}

// Budget is the time for one move with left on the clock, inc added after
// each move and movesToGo moves to the next time control (0: sudden
// death), overhead kept back for the GUI and the process. Over the next
// m = min(Horizon, movesToGo) moves (BareHorizon in place of Horizon when
// inc is below the overhead: every move then costs the clock, which must
// last longer) the clock and the m-1 increments to come, less m
// overheads, are shared evenly: that share is the soft limit. The hard limit is HardRatio times the soft limit, but never more
// than HardShare of the clock less one overhead; the soft limit is never
// above the hard. Both are at least a millisecond. At 10 s + 100 ms, 10 ms
// overhead and the defaults, the soft limit is (10 s + 15 x 100 ms - 16 x
// 10 ms) / 16 = 708.75 ms and the hard 2,126.25 ms. As the clock runs
// down, it settles near the increment plus Horizon times the overhead
// less the real cost of a move outside the search (r): inc + Horizon x
// (overhead - r), about 120 ms at 1 s + 10 ms for r near 3 ms.
func (p TimeParams) Budget(left, inc time.Duration, movesToGo int, overhead time.Duration) Budget {
	usable := left - overhead
	if usable <= 0 {
		return Budget{time.Millisecond, time.Millisecond}
	}
	m := max(p.Horizon, 1)
	if inc < overhead {
		m = max(p.BareHorizon, 1)
	}
	if movesToGo > 0 && movesToGo < m {
		m = movesToGo
	}
	n := time.Duration(m)
	soft := max((left+max(inc, 0)*(n-1)-overhead*n)/n, 0)
	hard := min(perMille(soft, p.HardRatio), perMille(usable, p.HardShare))
	soft = min(soft, hard)
	return Budget{max(soft, time.Millisecond), max(hard, time.Millisecond)}
}

// perMille is k thousandths of d, without overflow for any clock.
func perMille(d time.Duration, k int) time.Duration {
	if k <= 0 || d <= 0 {
		return 0
	}
	if d > math.MaxInt64/time.Duration(k) {
		return d / 1000 * time.Duration(k)
	}
	return d * time.Duration(k) / 1000
}

// Pace decides, after each iteration of the iterative deepening of a
// timed search, whether to start the next: the search stops once its time
// reaches the target (the soft limit, extended for an unstable best move
// or a falling score, never past the hard limit), or when the next
// iteration is predicted not to finish by the hard limit, which would
// waste its time. It is fed elapsed times, never reads a clock itself.
type Pace struct {
	p      TimeParams
	budget Budget

	previous    int  // the score of the player's previous move
	hasPrevious bool // whether previous holds one

	iterations  int
	move        games.Move
	score       int
	changes     int           // recent best-move changes, in thousandths, halved at each iteration
	lastElapsed time.Duration // when the last iteration ended
	lastTime    time.Duration // how long it took
	total       int64         // the search's nodes after the last iteration
	nodes       [3]int64      // the nodes of the last three iterations, newest first
}

// NewPace returns the pace of one search on budget b; previous is the
// score the player's search of its previous move found (its own point of
// view), when hasPrevious.
func (p TimeParams) NewPace(b Budget, previous int, hasPrevious bool) *Pace {
	return &Pace{p: p, budget: b, previous: previous, hasPrevious: hasPrevious}
}

// After takes the iteration that ended elapsed into the search, with its
// best move, score and the search's node count so far, and reports
// whether to stop the search now rather than start the next iteration.
func (pc *Pace) After(elapsed time.Duration, move games.Move, score int, nodes int64) bool {
	pc.changes /= 2
	if pc.iterations > 0 && move != pc.move {
		pc.changes += 1000
	}
	pc.iterations++
	pc.move, pc.score = move, score
	pc.lastTime, pc.lastElapsed = elapsed-pc.lastElapsed, elapsed
	pc.nodes = [3]int64{nodes - pc.total, pc.nodes[0], pc.nodes[1]}
	pc.total = nodes
	if elapsed >= pc.Target() {
		return true
	}
	return elapsed+pc.Next() > pc.budget.Hard
}

// Target is the time the search aims at after the iterations seen: the
// soft limit, plus ChangeBonus for each recent change of the best move
// (a change counts whole at its iteration and half as much at each
// iteration after) and DropBonus in proportion to the fall of the score below the previous
// move's (up to DropUnits), at most the hard limit.
func (pc *Pace) Target() time.Duration {
	t := perMille(pc.budget.Soft, 1000+pc.p.ChangeBonus*pc.changes/1000)
	if pc.hasPrevious && pc.iterations > 0 && !mateScore(pc.previous) && !mateScore(pc.score) {
		if drop := min(pc.previous-pc.score, pc.p.DropUnits); drop > 0 {
			t = perMille(t, 1000+pc.p.DropBonus*drop/max(pc.p.DropUnits, 1))
		}
	}
	return min(t, pc.budget.Hard)
}

// Next predicts the time of the next iteration: the last one's times the
// growth of the node counts per iteration (the square root of the last
// iteration's nodes over those two iterations before, which evens out the
// odd-even swing of some games; the last over the one before after two
// iterations), or Growth after one; the growth is held between 1 and 50,
// a bound on the counts of tiny first iterations, not a constant of the
// clock use.
func (pc *Pace) Next() time.Duration {
	growth := float64(pc.p.Growth) / 1000
	n := pc.nodes
	switch {
	case pc.iterations >= 3 && n[2] > 0:
		growth = math.Sqrt(float64(n[0]) / float64(n[2]))
	case pc.iterations == 2 && n[1] > 0:
		growth = float64(n[0]) / float64(n[1])
	}
	growth = min(max(growth, 1), 50)
	return time.Duration(float64(pc.lastTime) * growth)
}

func mateScore(s int) bool { return engine.IsWin(s) || engine.IsLoss(s) }
