package thinker_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
)

const ms = time.Millisecond

// TestBudget: the soft and hard limits' known answers, computed by hand
// from the doc's rule with the defaults (horizon 16, hard 3x the soft and
// at most 40% of the usable clock) and with other constants.
func TestBudget(t *testing.T) {
	other := thinker.DefaultTimeParams()
	other.Horizon, other.HardRatio, other.HardShare = 10, 2000, 500
	for _, c := range []struct {
		name      string
		p         thinker.TimeParams
		left, inc time.Duration
		togo      int
		overhead  time.Duration
		soft      time.Duration
		hard      time.Duration
	}{
		// (10000 + 15*100 - 16*10) / 16 = 708.75; hard 3 x that, under 0.4 x 9990.
		{"10+0.1", thinker.DefaultTimeParams(), 10000 * ms, 100 * ms, 0, 10 * ms, 708750 * time.Microsecond, 2126250 * time.Microsecond},
		// (1000 + 15*10 - 16*10) / 16 = 61.875; hard 185.625, under 0.4 x 990.
		{"1+0.01", thinker.DefaultTimeParams(), 1000 * ms, 10 * ms, 0, 10 * ms, 61875 * time.Microsecond, 185625 * time.Microsecond},
		// late in a game: (300 + 1500 - 160) / 16 = 102.5; hard 0.4 x 290 = 116.
		{"low clock", thinker.DefaultTimeParams(), 300 * ms, 100 * ms, 0, 10 * ms, 102500 * time.Microsecond, 116 * ms},
		// 40 moves to go but the horizon is nearer: 60 s / 16.
		{"40/60", thinker.DefaultTimeParams(), 60 * time.Second, 0, 40, 0, 3750 * ms, 11250 * ms},
		// 5 to go: (3000 - 50) / 5 = 590; hard 0.4 x 2990 = 1196.
		{"5 to go", thinker.DefaultTimeParams(), 3000 * ms, 0, 5, 10 * ms, 590 * ms, 1196 * ms},
		// the last move of a control: 1490, cut to the hard 0.4 x 1490.
		{"1 to go", thinker.DefaultTimeParams(), 1500 * ms, 0, 1, 10 * ms, 596 * ms, 596 * ms},
		{"nothing left", thinker.DefaultTimeParams(), 0, 100 * ms, 0, 10 * ms, ms, ms},
		{"ran over", thinker.DefaultTimeParams(), -50 * ms, 100 * ms, 0, 10 * ms, ms, ms},
		{"overhead eats it", thinker.DefaultTimeParams(), 10 * ms, 0, 0, 10 * ms, ms, ms},
		// no increment: shared over the bare horizon, 40 moves.
		{"60+0", thinker.DefaultTimeParams(), 60 * time.Second, 0, 0, 10 * ms, 1490 * ms, 4470 * ms},
		{"an increment below the overhead", thinker.DefaultTimeParams(), 60 * time.Second, 5 * ms, 0, 10 * ms, 1494875 * time.Microsecond, 4484625 * time.Microsecond},
		{"a negative increment counts as none", thinker.DefaultTimeParams(), 2000 * ms, -100 * ms, 0, 0, 50 * ms, 150 * ms},
		// horizon 10, hard 2x, at most half: 10 s / 10 = 1 s, hard 2 s.
		{"other constants", other, 10 * time.Second, 0, 0, 0, time.Second, 2 * time.Second},
		// an 11-day clock does not overflow: 2^40 ms / 16 and 3x that.
		{"huge clock", thinker.DefaultTimeParams(), (1 << 40) * ms, 0, 0, 0, (1 << 40) * ms / 16, (1 << 40) * ms / 16 / 1000 * 3000},
	} {
		got := c.p.Budget(c.left, c.inc, c.togo, c.overhead)
		if got.Soft != c.soft || got.Hard != c.hard {
			t.Errorf("%s: Budget(%v, %v, %d, %v) = %v / %v, want %v / %v", c.name, c.left, c.inc, c.togo, c.overhead, got.Soft, got.Hard, c.soft, c.hard)
		}
	}
}

// iteration is one completed iteration fed to a Pace.
type iteration struct {
	elapsed time.Duration
	move    games.Move
	score   int
	nodes   int64
}

// TestPace: the decision after each iteration, on a soft limit of 100 ms
// and a hard one of 300 ms, with the defaults (+50% per recent change of
// the best move, +50% for a drop of 100, growth 4 until the node counts
// tell).
func TestPace(t *testing.T) {
	b := thinker.Budget{Soft: 100 * ms, Hard: 300 * ms}
	p := thinker.DefaultTimeParams()
	for _, c := range []struct {
		name        string
		previous    int
		hasPrevious bool
		its         []iteration
		stops       []bool // After's answer for each
		target      time.Duration
		next        time.Duration
	}{
		// 10 ms x growth 4 = 40; 20 x 300/100 = 60; 60 x sqrt(900/100) = 180:
		// each ends before the hard limit, and 90 < 100.
		{"steady", 0, false, []iteration{{10 * ms, 1, 0, 100}, {30 * ms, 1, 0, 400}, {90 * ms, 1, 0, 1300}},
			[]bool{false, false, false}, 100 * ms, 180 * ms},
		{"soft limit reached", 0, false, []iteration{{10 * ms, 1, 0, 100}, {100 * ms, 1, 0, 400}}, []bool{false, true}, 100 * ms, 270 * ms},
		// 80 ms x 3 = 240 from 90 ends at 330 > 300: not started.
		{"the next cannot finish", 0, false, []iteration{{10 * ms, 1, 0, 100}, {90 * ms, 1, 0, 400}}, []bool{false, true}, 100 * ms, 240 * ms},
		// the best move changed at the second iteration: 100 x 1.5; then
		// at the third too: changes 0.5 + 1, 100 x 1.75.
		{"a new best move", 0, false, []iteration{{10 * ms, 1, 0, 100}, {20 * ms, 2, 0, 200}}, []bool{false, false}, 150 * ms, 10 * ms},
		{"two new best moves", 0, false, []iteration{{10 * ms, 1, 0, 100}, {20 * ms, 2, 0, 200}, {30 * ms, 3, 0, 300}}, []bool{false, false, false}, 175 * ms, 10 * ms},
		// a change two iterations back counts half: 100 x 1.25.
		{"an older change", 0, false, []iteration{{10 * ms, 1, 0, 100}, {20 * ms, 2, 0, 200}, {30 * ms, 2, 0, 300}}, []bool{false, false, false}, 125 * ms, 10 * ms},
		{"score fell 100", 50, true, []iteration{{10 * ms, 1, -50, 100}}, []bool{false}, 150 * ms, 40 * ms},
		{"score fell 20", 50, true, []iteration{{10 * ms, 1, 30, 100}}, []bool{false}, 110 * ms, 40 * ms},
		{"score fell 500: capped at 100", 50, true, []iteration{{10 * ms, 1, -450, 100}}, []bool{false}, 150 * ms, 40 * ms},
		{"score rose", 50, true, []iteration{{10 * ms, 1, 80, 100}}, []bool{false}, 100 * ms, 40 * ms},
		{"no previous score", 50, false, []iteration{{10 * ms, 1, -50, 100}}, []bool{false}, 100 * ms, 40 * ms},
		{"previous was a mate", engine.Mate - 3, true, []iteration{{10 * ms, 1, 0, 100}}, []bool{false}, 100 * ms, 40 * ms},
		// changes 0.5 + 1 and a drop: 100 x 1.75 x 1.5 = 262.5 > 250.
		{"capped at the hard limit", 50, true, []iteration{{10 * ms, 1, -50, 100}, {20 * ms, 2, -50, 200}, {30 * ms, 3, -50, 300}},
			[]bool{false, false, false}, 250 * ms, 10 * ms},
		// the node counts fall: the growth is never below 1.
		{"shrinking iterations", 0, false, []iteration{{10 * ms, 1, 0, 1000}, {20 * ms, 1, 0, 1100}}, []bool{false, false}, 100 * ms, 10 * ms},
	} {
		b := b
		if strings.HasPrefix(c.name, "capped") {
			b.Hard = 250 * ms
		}
		pc := p.NewPace(b, c.previous, c.hasPrevious)
		for i, it := range c.its {
			if got := pc.After(it.elapsed, it.move, it.score, it.nodes); got != c.stops[i] {
				t.Errorf("%s: iteration %d (%v): stop %v, want %v", c.name, i+1, it.elapsed, got, c.stops[i])
			}
		}
		if got := pc.Target(); got != c.target {
			t.Errorf("%s: target %v, want %v", c.name, got, c.target)
		}
		if got := pc.Next(); got != c.next {
			t.Errorf("%s: next iteration predicted %v, want %v", c.name, got, c.next)
		}
	}
}

// TestTimerPlan: a move time is a hard limit alone, a clock a budget with
// its pace, both the sooner limit.
func TestTimerPlan(t *testing.T) {
	tm := thinker.NewTimer()
	if hard, pace := tm.Plan(games.ThinkLimits{Depth: 3}); hard != 0 || pace != nil {
		t.Errorf("a depth alone: hard %v, pace %v", hard, pace)
	}
	if hard, pace := tm.Plan(games.ThinkLimits{MoveTime: 500 * ms}); hard != 490*ms || pace != nil {
		t.Errorf("movetime 500: hard %v, pace %v; want 490 ms less the overhead, no pace", hard, pace)
	}
	clock := games.ThinkLimits{Clock: true, Left: 10 * time.Second, Increment: 100 * ms}
	if hard, pace := tm.Plan(clock); hard != 2126250*time.Microsecond || pace == nil || pace.Target() != 708750*time.Microsecond {
		t.Errorf("10+0.1: hard %v, pace %v", hard, pace)
	}
	clock.MoveTime = 400 * ms
	if hard, pace := tm.Plan(clock); hard != 390*ms || pace == nil || pace.Target() != 390*ms {
		t.Errorf("10+0.1 and movetime 400: hard %v, pace %v; want 390 for both", hard, pace)
	}
}

// TestTimeParams: every constant has a doc, a default within its range,
// and Set checks the range and the name.
func TestTimeParams(t *testing.T) {
	p := thinker.DefaultTimeParams()
	for _, d := range thinker.TimeParamList() {
		if d.Doc == "" || d.Min > d.Default || d.Default > d.Max || d.Step < 1 || !strings.HasPrefix(d.Name, "time-") {
			t.Errorf("%+v: want a doc, min <= default <= max, a step and a time- name", d)
		}
		if v, ok := p.Get(d.Name); !ok || v != d.Default {
			t.Errorf("%s: Get = %d, %v; want the default %d", d.Name, v, ok, d.Default)
		}
		if err := p.Set(d.Name, d.Max+1); err == nil {
			t.Errorf("%s: %d above the range accepted", d.Name, d.Max+1)
		}
		if err := p.Set(d.Name, d.Min); err != nil {
			t.Errorf("%s: the minimum refused: %v", d.Name, err)
		}
	}
	if err := p.Set("time-nothing", 1); err == nil || !strings.Contains(err.Error(), "time-horizon") {
		t.Errorf("an unknown name: %v; want an error listing the names", err)
	}
	if p.Horizon != 5 {
		t.Errorf("Set(time-horizon, 5) left %d", p.Horizon)
	}
}

// TestClockSimulated: whole games of 150 moves on a simulated clock, the
// iterations' times drawn (seeded) from a growth of 2 to 8 per iteration
// with moves that change: no move ever takes more than its hard limit,
// which is never more than the clock holds, and the clock never runs out,
// at 10+0.1, 1+0.01 and 60+0, with a real overhead of half the one kept
// back; with an increment, 85% of the clock is spent by move 60.
func TestClockSimulated(t *testing.T) {
	for _, tc := range []struct {
		base, inc time.Duration
	}{{10 * time.Second, 100 * ms}, {time.Second, 10 * ms}, {60 * time.Second, 0}} {
		rng := rand.New(rand.NewPCG(7, uint64(tc.base)))
		tm := thinker.NewTimer()
		left := tc.base
		for move := 1; move <= 150; move++ {
			hard, pace := tm.Plan(games.ThinkLimits{Clock: true, Left: left, Increment: tc.inc})
			if hard > left-tm.Overhead && hard > ms {
				t.Fatalf("%v+%v move %d: hard limit %v with %v left", tc.base, tc.inc, move, hard, left)
			}
			used := simulateSearch(rng, pace, hard)
			if used > hard {
				t.Fatalf("%v+%v move %d: used %v, over the hard limit %v", tc.base, tc.inc, move, used, hard)
			}
			left += tc.inc - used - tm.Overhead/2
			if left <= 0 {
				t.Fatalf("%v+%v move %d: the clock ran out", tc.base, tc.inc, move)
			}
			if move == 60 && tc.inc > 0 && left > tc.base*15/100 {
				t.Errorf("%v+%v: %v left after 60 moves, over 15%% of the start", tc.base, tc.inc, left)
			}
		}
	}
}

// simulateSearch runs the iterations of one search on a simulated clock
// and returns the time it took: until the pace stops it after an
// iteration, or the hard limit cuts one short.
func simulateSearch(rng *rand.Rand, pace *thinker.Pace, hard time.Duration) time.Duration {
	elapsed, iter, nodes := time.Duration(0), time.Duration(50+rng.IntN(200))*time.Microsecond, int64(0)
	move := games.Move(1)
	for depth := 1; ; depth++ {
		growth := 2 + 6*rng.Float64()
		iter = time.Duration(float64(iter) * growth)
		if elapsed+iter > hard {
			return hard
		}
		elapsed += iter
		nodes += int64(iter / time.Microsecond)
		if rng.IntN(4) == 0 {
			move++
		}
		if pace.After(elapsed, move, -rng.IntN(60), nodes) {
			return elapsed
		}
	}
}
