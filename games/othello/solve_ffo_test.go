package othello

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The solver's knobs from the environment, for experiments.
func init() {
	for _, k := range []struct {
		name string
		vars []any
	}{
		{"SE", []any{&shallowEmpties}}, {"EVO", []any{&evalOrderEmpties}},
		{"OEV", []any{&orderEval[0], &orderEval[1], &orderEval[2]}},
		{"SD", []any{&sortDepths[0], &sortDepths[1]}}, {"NEAR", []any{&nearEmpties, &nearKiB}},
		{"ETC", []any{&etcEmpties}}, {"HUGE", []any{&hugeTables}}, {"SPLIT", []any{&splitEmpties}},
		{"SEL", []any{&selectiveEmpties}}, {"ENDCUT", []any{&endCutEmpties, &endCutDepths[0], &endCutDepths[1]}},
		{"ROOTSEL", []any{&rootOrderSelective}}, {"ASP", []any{&selectiveAspiration}},
		{"LEVELON", []any{&selectiveLevels[0], &selectiveLevels[1], &selectiveLevels[2], &selectiveLevels[3],
			&selectiveLevels[4]}},
		{"LAZY", []any{&lazyOrder}}, {"HINT", []any{&etcHint}}, {"MID", []any{&midTableBits, &midTableDepth}},
		{"LEVELS", []any{&selectivity[0], &selectivity[1], &selectivity[2], &selectivity[3], &selectivity[4]}},
	} {
		if v := os.Getenv(k.name); v != "" {
			fmt.Sscan(v, k.vars...)
		}
	}
}

// ffoWorkers is the solver's workers in the FFO tests and benchmark:
// GAMETUNE_SOLVE_WORKERS, or runtime.GOMAXPROCS.
func ffoWorkers() int {
	if n, err := strconv.Atoi(os.Getenv("GAMETUNE_SOLVE_WORKERS")); err == nil && n > 0 {
		return n
	}
	return runtime.GOMAXPROCS(0)
}

// ffoTableMiB is the solver's shared table in the FFO tests:
// GAMETUNE_SOLVE_TABLE_MIB, or 0 for the default.
func ffoTableMiB(tb testing.TB) int {
	v := os.Getenv("GAMETUNE_SOLVE_TABLE_MIB")
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		tb.Fatalf("GAMETUNE_SOLVE_TABLE_MIB=%q: want a whole number of MiB", v)
	}
	return n
}

// ffoPosition is one position of the FFO endgame test suite.
type ffoPosition struct {
	number int
	pos    *Position
	score  int
	best   []string
}

// ffoSuite reads testdata/ffo.txt.
func ffoSuite(tb testing.TB) []ffoPosition {
	tb.Helper()
	f, err := os.Open("testdata/ffo.txt")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []ffoPosition
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 5 {
			tb.Fatalf("ffo.txt: %q: want 5 fields", line)
		}
		number, err1 := strconv.Atoi(fields[0])
		p, err2 := Parse(fields[1] + " " + fields[2])
		score, err3 := strconv.Atoi(fields[3])
		if err1 != nil || err2 != nil || err3 != nil {
			tb.Fatalf("ffo.txt: %q: %v %v %v", line, err1, err2, err3)
		}
		out = append(out, ffoPosition{number, p, score, strings.Split(fields[4], ",")})
	}
	return out
}

// ffoQuick are the FFO positions solved under plain 'go test': the ones
// that take about a second or less.
var ffoQuick = map[int]bool{40: true, 44: true, 47: true}

// solveFFO solves f with s (its tables cleared first) and checks the score
// and the move against the suite's.
func solveFFO(tb testing.TB, s *Solver, f ffoPosition) Solution {
	tb.Helper()
	s.clear()
	sol, err := s.Solve(context.Background(), f.pos, SolveOptions{})
	if err != nil {
		tb.Fatalf("FFO #%d: %v", f.number, err)
	}
	move := f.pos.FormatMove(sol.Move)
	if sol.Score != f.score || !slices.Contains(f.best, move) {
		tb.Fatalf("FFO #%d: %+d by %s, want %+d by %v", f.number, sol.Score, move, f.score, f.best)
	}
	return sol
}

// TestSolveFFO solves FFO test positions to their published scores and
// best moves: the quick ones (ffoQuick) under plain go test, all twenty
// (#40-#59, many minutes) with GAMETUNE_EXPERIMENTS=1, which prints each
// position's time and nodes; FFO=53-59 with it solves those alone
// (GAMETUNE_SOLVE_WORKERS and GAMETUNE_SOLVE_TABLE_MIB set the workers and
// the shared table's size).
func TestSolveFFO(t *testing.T) {
	if testing.Short() {
		t.Skip("solves endgames of 20 empty squares and more")
	}
	all := os.Getenv("GAMETUNE_EXPERIMENTS") == "1"
	lo, hi := 40, 59
	if r := os.Getenv("FFO"); all && r != "" {
		if _, err := fmt.Sscanf(r, "%d-%d", &lo, &hi); err != nil {
			t.Fatalf("FFO=%q: want a range of FFO numbers such as 53-59", r)
		}
	}
	s, err := NewSolver(SolverOptions{Workers: ffoWorkers(), TableMiB: ffoTableMiB(t)})
	if err != nil {
		t.Fatal(err)
	}
	var total time.Duration
	var nodes int64
	for _, f := range ffoSuite(t) {
		if !all && !ffoQuick[f.number] || f.number < lo || f.number > hi {
			continue
		}
		start := time.Now()
		sol := solveFFO(t, s, f)
		took := time.Since(start)
		total, nodes = total+took, nodes+sol.Nodes
		if all {
			t.Logf("#%d %2d empties %+3d %s %8.2f s %14d nodes %6.1f M nodes/s", f.number, f.pos.Empties(), sol.Score,
				f.pos.FormatMove(sol.Move), took.Seconds(), sol.Nodes, float64(sol.Nodes)/took.Seconds()/1e6)
		}
	}
	if all {
		t.Logf("total %.1f s, %d nodes", total.Seconds(), nodes)
	}
}

// TestSolveFFONodes pins one worker's nodes on the quick FFO positions:
// a change to the solver's order, pruning or evaluation shows here.
// Without etcHint #44 and #47 took 10,207,904 and 15,126,490 nodes; with
// transposition cutoffs from 12 empty squares the three took 18,343,230,
// 10,242,235 and 15,198,240 nodes; without the sort searches' table
// (midTable) as well 18,343,403,
// 10,462,038 and 15,346,585 nodes; with the table's move sorted with the
// others as well (before lazyOrder)
// took 18,343,541, 10,525,493 and 15,440,550 nodes; with enhanced transposition cutoffs from 16 empty squares up and no
// aspiration at the root's levels the three took 19,399,024, 10,859,588
// and 15,964,590 nodes; with the shipped patterns evaluation in the order
// and ProbCut (before the endgame tables, endeval.go) 19,810,586,
// 18,472,347 and 15,640,476 (53.9 M against 46.2 M); before that, with
// the evaluation weighed in the order as Edax weighs it, 61.2 M.
func TestSolveFFONodes(t *testing.T) {
	if testing.Short() {
		t.Skip("solves endgames of 20 empty squares and more")
	}
	want := map[int]int64{40: 18064644, 44: 10166755, 47: 15072536}
	s, err := NewSolver(SolverOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	solved := 0
	for _, f := range ffoSuite(t) {
		if n, ok := want[f.number]; ok {
			if got := solveFFO(t, s, f).Nodes; got != n {
				t.Errorf("FFO #%d, one worker: %d nodes, want %d", f.number, got, n)
			}
			solved++
		}
	}
	if solved != len(want) {
		t.Fatalf("solved %d of the %d positions", solved, len(want))
	}
}

// BenchmarkSolveFFO solves each FFO position (#40-#59) and reports its
// nodes: go test -bench SolveFFO/40 for one, -benchtime 1x for all once.
func BenchmarkSolveFFO(b *testing.B) {
	s, err := NewSolver(SolverOptions{Workers: ffoWorkers()})
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range ffoSuite(b) {
		b.Run(strconv.Itoa(f.number), func(b *testing.B) {
			var nodes int64
			for b.Loop() {
				nodes += solveFFO(b, s, f).Nodes
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// TestSolveFFOProof runs the two null-window searches that prove each
// selected position's value (FFO=40-44), for experiments.
func TestSolveFFOProof(t *testing.T) {
	if os.Getenv("FFO") == "" {
		t.Skip("set FFO=40-44 to prove those positions' values")
	}
	s, _ := NewSolver(SolverOptions{})
	for _, f := range ffoSuite(t) {
		var lo, hi int
		fmt.Sscanf(os.Getenv("FFO"), "%d-%d", &lo, &hi)
		if f.number < lo || f.number > hi {
			continue
		}
		s.clear()
		w := s.workers[0]
		w.reset()
		p, o := f.pos.mine(), f.pos.theirs()
		n := empties(p, o)
		a := w.nws(p, o, f.score-1, n)
		n1 := w.nodes
		b := w.nws(p, o, f.score+1, n)
		t.Logf("#%d proof: %d %d nodes %.1f + %.1f Mn", f.number, a, b, float64(n1)/1e6, float64(w.nodes-n1)/1e6)
	}
}
