package othello

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/games"
)

// withSelective runs f with the selective driver from empties empty
// squares at the root and ProbCut from cutEmpties, and restores the
// settings.
func withSelective(empties, cutEmpties int, f func()) {
	se, ce := selectiveEmpties, endCutEmpties
	defer func() { selectiveEmpties, endCutEmpties = se, ce }()
	selectiveEmpties, endCutEmpties = empties, cutEmpties
	f()
}

// TestSelectiveSolveExact: with the selective levels before the exact
// search (from 14 empty squares, ProbCut from 10), the solver's scores
// are those of the exact search alone, and its moves score them, on
// random endgames of 14 to 17 empty squares; the levels do cut.
func TestSelectiveSolveExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(56, 7))
	plain, err := NewSolver(SolverOptions{TableMiB: 4})
	if err != nil {
		t.Fatal(err)
	}
	selective, err := NewSolver(SolverOptions{TableMiB: 4})
	if err != nil {
		t.Fatal(err)
	}
	var cuts, solved int64
	for i := 0; i < 16; i++ {
		p, ok := randomEndgame(rng, 14+i%4)
		if !ok {
			continue
		}
		plain.clear()
		want, err := plain.Solve(context.Background(), p, SolveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var got Solution
		withSelective(14, 10, func() {
			selective.clear()
			got, err = selective.Solve(context.Background(), p, SolveOptions{})
		})
		if err != nil || got.Score != want.Score {
			t.Fatalf("%s: selective %+d (%v), exact %+d", p, got.Score, err, want.Score)
		}
		if got.Move != PassMove && got.Move != games.NoMove {
			q := p.Clone().(*Position)
			q.Play(got.Move)
			plain.clear()
			after, err := plain.Solve(context.Background(), q, SolveOptions{})
			if err != nil || -after.Score != want.Score {
				t.Fatalf("%s: the selective move %s scores %+d (%v), the position %+d", p, p.FormatMove(got.Move), -after.Score, err, want.Score)
			}
		}
		cuts += selective.workers[0].endCuts
		solved++
	}
	if solved < 14 || cuts == 0 {
		t.Fatalf("%d positions solved, %d ProbCuts: want 14 and some cuts", solved, cuts)
	}
}

// TestSelectiveSolveWorkers: through the selective levels, three workers
// find the score and the move one finds, on endgames of 17 empty squares,
// where the workers split nodes: the exact search's root order does not
// take the selective levels' move.
func TestSelectiveSolveWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(56, 10))
	one, err := NewSolver(SolverOptions{TableMiB: 4})
	if err != nil {
		t.Fatal(err)
	}
	three, err := NewSolver(SolverOptions{TableMiB: 4, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	withSelective(14, 10, func() {
		for i := 0; i < 6; i++ {
			p, ok := randomEndgame(rng, 17)
			if !ok {
				continue
			}
			a, err1 := one.Solve(context.Background(), p, SolveOptions{})
			b, err2 := three.Solve(context.Background(), p, SolveOptions{})
			if err1 != nil || err2 != nil || a.Score != b.Score || a.Move != b.Move {
				t.Fatalf("%s: one worker %+d %s (%v), three %+d %s (%v)", p, a.Score, p.FormatMove(a.Move), err1, b.Score, p.FormatMove(b.Move), err2)
			}
		}
	})
}

// TestSelectiveEntryCutsOnlyItsLevel: a table entry found at a selective
// level, here a false one, cuts a null-window search at that level but
// not an exact one, at the node itself or through the enhanced
// transposition cutoffs of its parent; and an exact entry's bounds are not
// replaced by a selective search's.
func TestSelectiveEntryCutsOnlyItsLevel(t *testing.T) {
	p0, ok := randomEndgame(rand.New(rand.NewPCG(56, 8)), etcEmpties+1)
	if !ok {
		t.Fatal("no endgame")
	}
	s, err := NewSolver(SolverOptions{TableMiB: 4})
	if err != nil {
		t.Fatal(err)
	}
	w := s.workers[0]
	p, o := p0.mine(), p0.theirs()
	n := empties(p, o)
	if n < etcEmpties+1 || legalMoves(p, o) == 0 {
		t.Fatalf("%s: want a node with moves and the transposition cutoffs' children", p0)
	}
	w.reset()
	v := w.pvs(p, o, -inf, inf, n)

	// A false level-0 entry at the node: above the value.
	s.clear()
	s.table.store(p, o, n, -inf, inf, min(v+20, 64), -1, 0)
	w.level = 0
	if sc := w.nws(p, o, v, n); sc <= v {
		t.Fatalf("a level-0 search at %d: %d; the level-0 entry of %d does not cut it", v, sc, min(v+20, 64))
	}
	w.level = exactLevel
	if sc := w.nws(p, o, v, n); sc > v {
		t.Fatalf("an exact search at %d: %d; the value is %d (the level-0 entry cut it)", v, sc, v)
	}

	// False level-0 entries at every child, each one scoring the move
	// far above the value: the parent's transposition cutoffs take them at
	// level 0 only.
	s.clear()
	for m := legalMoves(p, o); m != 0; m &= m - 1 {
		sq := trailingZeros(m)
		f := flips(p, o, sq)
		s.table.store(o&^f, p|f|1<<sq, n-1, -inf, inf, max(-v-20, -64), -1, 0)
	}
	w.level = 0
	if sc := w.nws(p, o, v, n); sc <= v {
		t.Fatalf("a level-0 search at %d: %d; the children's level-0 entries do not cut it", v, sc)
	}
	w.level = exactLevel
	if sc := w.nws(p, o, v, n); sc > v {
		t.Fatalf("an exact search at %d: %d; the value is %d (a child's level-0 entry cut it)", v, sc, v)
	}
	if sol, err := s.Solve(context.Background(), p0, SolveOptions{}); err != nil || sol.Score != v {
		t.Fatalf("the solve over level-0 entries: %+d (%v), the value %+d", sol.Score, err, v)
	}

	// An exact entry stays when a selective search stores another score.
	s.clear()
	s.table.store(p, o, n, -inf, inf, v, -1, exactLevel)
	s.table.store(p, o, n, v-1, v, v+10, -1, 2)
	if e, ok := s.table.probe(p, o); !ok || int(e.lower) != v || int(e.upper) != v || e.level != exactLevel {
		t.Fatalf("the exact entry of %d after a level-2 store: %+v", v, e)
	}
	// A selective entry gives way to an exact search's.
	s.clear()
	s.table.store(p, o, n, -inf, inf, v+10, -1, 1)
	s.table.store(p, o, n, v, v+1, v, -1, exactLevel)
	if e, ok := s.table.probe(p, o); !ok || int(e.lower) != -64 || int(e.upper) != v || e.level != exactLevel {
		t.Fatalf("a level-1 entry after an exact store of at most %d: %+v", v, e)
	}
}

// TestSelectiveSolveDoesNotAllocate: a solve through the selective levels
// allocates nothing.
func TestSelectiveSolveDoesNotAllocate(t *testing.T) {
	s, err := NewSolver(SolverOptions{TableMiB: 1})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := randomEndgame(rand.New(rand.NewPCG(3, 3)), 16)
	ctx := context.Background()
	withSelective(14, 10, func() {
		solve := func() {
			s.clear()
			s.Solve(ctx, p, SolveOptions{})
		}
		if a := testing.AllocsPerRun(3, solve); a != 0 {
			t.Errorf("a selective solve allocates %v times", a)
		}
		if s.workers[0].endCuts == 0 {
			t.Error("no ProbCut in the selective solve")
		}
	})
}

// TestEndCutDepth: Edax's shallow depths, of the parity of the empty
// squares.
func TestEndCutDepth(t *testing.T) {
	for _, c := range []struct{ n, d int }{{12, 2}, {13, 3}, {16, 4}, {17, 5}, {24, 6}, {25, 7}} {
		if got := endCutDepth(c.n); got != c.d {
			t.Errorf("endCutDepth(%d) = %d, want %d", c.n, got, c.d)
		}
	}
}

// selfPlayEndgames plays games with the shipped patterns evaluator (a
// depth-2 search, one move in eight at random, after a random opening of
// 2 to 9 plies) and keeps, of each game, the positions with e empty
// squares while it has fewer than want[e] of them, until it has them all.
func selfPlayEndgames(rng *rand.Rand, want []int) []*Position {
	w := &worker{ev: &endEval{ev: patternsEvaluator, w: patternsEvaluator.Defaults()}}
	var out []*Position
	count := make([]int, len(want))
	for full := false; !full; {
		p := Start()
		opening := 2 + rng.IntN(8)
		for ply := 0; ; ply++ {
			moves, outcome := p.Moves(nil)
			if outcome != games.Ongoing {
				break
			}
			if e := p.Empties(); e < len(want) && count[e] < want[e] && moves[0] != PassMove {
				count[e]++
				out = append(out, p.Clone().(*Position))
			}
			m := moves[rng.IntN(len(moves))]
			if ply >= opening && rng.IntN(8) != 0 {
				best := -1 << 30
				for _, c := range moves {
					q := p.Clone().(*Position)
					q.Play(c)
					if sc := -w.midSearch(q.mine(), q.theirs(), 1, -1<<20, 1<<20); sc > best {
						best, m = sc, c
					}
				}
			}
			p.Play(m)
		}
		full = true
		for e := range want {
			full = full && count[e] >= want[e]
		}
	}
	return out
}

// wantEmpties is the want of selfPlayEndgames for per positions of each
// number of empty squares from lo to hi.
func wantEmpties(lo, hi, per int) []int {
	want := make([]int, hi+1)
	for e := lo; e <= hi; e++ {
		want[e] = per
	}
	return want
}

// TestFitEndCut fits endCutLines and endCutSigma: on self-play positions
// of 10 to GAMETUNE_FIT_EMPTIES (20) empty squares, GAMETUNE_POSITIONS
// (150) of each number, the exact score (times ten) against each depth-d
// midSearch (d from 0 to endCutMaxDepth): for each depth and parity of
// the empty squares the least-squares line through all of them, then by
// (empties, depth) the mean and standard deviation of the exact score's
// distance from the line, and the least-squares fit of endCutFit's
// weights of endCutFeatures to the deviations. It prints endCutLines and
// endCutFit as Go (GAMETUNE_EXPERIMENTS=1; about five minutes on an idle
// core). GAMETUNE_FIT_NEAR=n (16) keeps only the samples whose predicted
// score is n discs or fewer from a draw: the prediction's error grows with the score,
// and ProbCut's cuts that matter are near the root's score.
func TestFitEndCut(t *testing.T) {
	if os.Getenv("GAMETUNE_EXPERIMENTS") != "1" {
		t.Skip("a fit of minutes: set GAMETUNE_EXPERIMENTS=1 to run it")
	}
	hi, per, near := 20, 150, 16
	for _, k := range []struct {
		name string
		v    *int
	}{{"GAMETUNE_FIT_EMPTIES", &hi}, {"GAMETUNE_POSITIONS", &per}, {"GAMETUNE_FIT_NEAR", &near}} {
		if s := os.Getenv(k.name); s != "" {
			if _, err := fmt.Sscan(s, k.v); err != nil {
				t.Fatalf("%s=%q: want a number", k.name, s)
			}
		}
	}
	const lo = 10
	s, err := NewSolver(SolverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w := s.workers[0]
	w.reset()
	positions := selfPlayEndgames(rand.New(rand.NewPCG(56, 9)), wantEmpties(lo, hi, per))
	type sample struct{ mid, exact float64 }
	samples := make([][endCutMaxDepth + 1][]sample, hi+1)
	for _, p := range positions {
		sol, err := s.Solve(context.Background(), p, SolveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		e := p.Empties()
		for d := 0; d <= endCutMaxDepth && d < e; d++ {
			w.reset()
			mid := w.midSearch(p.mine(), p.theirs(), d, -1<<20, 1<<20)
			samples[e][d] = append(samples[e][d], sample{float64(mid), float64(10 * sol.Score)})
		}
	}
	// The lines through all the samples, then, when near is set, through
	// those that they predict near a draw (a selection on the prediction,
	// which leaves the line's slope unbiased, as one on the exact score
	// would not), and the samples kept for the deviations.
	var lines [2][endCutMaxDepth + 1][2]float64
	for pass := range 2 {
		for odd := range lines {
			for d := range lines[odd] {
				var n, sx, sy, sxx, sxy float64
				for e := lo + odd; e <= hi; e += 2 {
					kept := samples[e][d][:0]
					for _, x := range samples[e][d] {
						if l := lines[odd][d]; pass == 1 && math.Abs(l[0]*x.mid+l[1]) > float64(10*near) {
							continue
						}
						kept = append(kept, x)
						n, sx, sy, sxx, sxy = n+1, sx+x.mid, sy+x.exact, sxx+x.mid*x.mid, sxy+x.mid*x.exact
					}
					samples[e][d] = kept
				}
				slope := (n*sxy - sx*sy) / (n*sxx - sx*sx)
				lines[odd][d] = [2]float64{slope, (sy - slope*sx) / n}
			}
		}
	}
	var ata [4][4]float64
	var atb [4]float64
	var b strings.Builder
	fmt.Fprintf(&b, "empties: mean/sigma of 10*exact - the line of midSearch(d), tenths, d = 0..%d\n", endCutMaxDepth)
	for e := lo; e <= hi; e++ {
		fmt.Fprintf(&b, "%2d:", e)
		for d := 0; d <= endCutMaxDepth && d < e; d++ {
			var n, sum, sq float64
			for _, x := range samples[e][d] {
				l := lines[e&1][d]
				r := x.exact - (l[0]*x.mid + l[1])
				n, sum, sq = n+1, sum+r, sq+r*r
			}
			if n < 2 {
				continue
			}
			mean := sum / n
			sigma := math.Sqrt((sq - n*mean*mean) / (n - 1))
			fmt.Fprintf(&b, " %+6.1f/%5.1f", mean, sigma)
			x := endCutFeatures(e, d)
			for i := range x {
				for j := range x {
					ata[i][j] += x[i] * x[j]
				}
				atb[i] += x[i] * sigma
			}
		}
		b.WriteString("\n")
	}
	fit := solveLinear(ata, atb)
	b.WriteString("var endCutLines = [2][endCutMaxDepth + 1][2]float64{")
	for odd := range lines {
		b.WriteString("\n\t{")
		for d, l := range lines[odd] {
			if d > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "{%.3f, %.1f}", l[0], l[1])
		}
		b.WriteString("},")
	}
	fmt.Fprintf(&b, "\n}\nvar endCutFit = [4]float64{%.2f, %.3f, %.3f, %.2f}", fit[0], fit[1], fit[2], fit[3])
	t.Logf("%d positions\n%s", len(positions), b.String())
}

// solveLinear solves a x = b by Gaussian elimination with partial
// pivoting.
func solveLinear(a [4][4]float64, b [4]float64) [4]float64 {
	for k := range a {
		p := k
		for i := k + 1; i < len(a); i++ {
			if math.Abs(a[i][k]) > math.Abs(a[p][k]) {
				p = i
			}
		}
		a[k], a[p], b[k], b[p] = a[p], a[k], b[p], b[k]
		for i := k + 1; i < len(a); i++ {
			f := a[i][k] / a[k][k]
			for j := k; j < len(a); j++ {
				a[i][j] -= f * a[k][j]
			}
			b[i] -= f * b[k]
		}
	}
	var x [4]float64
	for k := len(a) - 1; k >= 0; k-- {
		x[k] = b[k]
		for j := k + 1; j < len(a); j++ {
			x[k] -= a[k][j] * x[j]
		}
		x[k] /= a[k][k]
	}
	return x
}

// TestSolveFFOSelective solves the FFO positions of FFO (a range, 40-47 by
// default) with the exact search alone and with the selective levels
// before it, side by side in one run (GAMETUNE_EXPERIMENTS=1), and prints
// each one's nodes (GAMETUNE_SOLVE_WORKERS=1 for counts that do not change
// from run to run), the ratio, the ProbCuts and the nodes at the end of
// each level. SELECTIVE=new (or old) runs one of the two alone.
func TestSolveFFOSelective(t *testing.T) {
	if os.Getenv("GAMETUNE_EXPERIMENTS") != "1" {
		t.Skip("solves FFO positions of minutes: set GAMETUNE_EXPERIMENTS=1 to run it")
	}
	lo, hi := 40, 47
	if r := os.Getenv("FFO"); r != "" {
		if _, err := fmt.Sscanf(r, "%d-%d", &lo, &hi); err != nil {
			t.Fatalf("FFO=%q: want a range of FFO numbers such as 40-47", r)
		}
	}
	mode := os.Getenv("SELECTIVE")
	s, err := NewSolver(SolverOptions{Workers: ffoWorkers()})
	if err != nil {
		t.Fatal(err)
	}
	var oldTotal, newTotal int64
	for _, f := range ffoSuite(t) {
		if f.number < lo || f.number > hi {
			continue
		}
		var old, sel Solution
		var oldTook, selTook time.Duration
		if mode != "new" {
			start := time.Now()
			withSelective(99, endCutEmpties, func() { old = solveFFO(t, s, f) })
			oldTook = time.Since(start)
		}
		if mode != "old" {
			start := time.Now()
			sel = solveFFO(t, s, f)
			selTook = time.Since(start)
		}
		oldTotal, newTotal = oldTotal+old.Nodes, newTotal+sel.Nodes
		w := s.workers[0]
		t.Logf("#%d %2d empties %+3d %s exact %13d nodes %7.1f s, selective %13d nodes %7.1f s, ratio %.3f, %d cuts, levels %v",
			f.number, f.pos.Empties(), f.score, f.pos.FormatMove(sel.Move), old.Nodes, oldTook.Seconds(), sel.Nodes, selTook.Seconds(),
			float64(sel.Nodes)/float64(max(old.Nodes, 1)), w.endCuts, w.levelNodes)
	}
	t.Logf("total: exact %d nodes, selective %d, ratio %.3f", oldTotal, newTotal, float64(newTotal)/float64(max(oldTotal, 1)))
}
