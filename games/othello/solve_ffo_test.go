package othello

import (
	"bufio"
	"context"
	"fmt"
	"os"
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
		{"SD", []any{&sortDepths[0], &sortDepths[1]}}, {"NEAR", []any{&nearEmpties, &nearMiB}},
		{"ETC", []any{&etcEmpties}},
	} {
		if v := os.Getenv(k.name); v != "" {
			fmt.Sscan(v, k.vars...)
		}
	}
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

// TestSolveFFO solves FFO positions and checks their scores and moves: #40
// and #41 always...
func TestSolveFFOTimed(t *testing.T) {
	if os.Getenv("FFO") == "" {
		t.Skip()
	}
	s, _ := NewSolver(0)
	var total time.Duration
	var nodes int64
	for _, f := range ffoSuite(t) {
		var lo, hi int
		fmt.Sscanf(os.Getenv("FFO"), "%d-%d", &lo, &hi)
		if f.number < lo || f.number > hi {
			continue
		}
		s.table.clear()
		s.near.clear()
		start := time.Now()
		sol, err := s.Solve(context.Background(), f.pos, SolveOptions{})
		el := time.Since(start)
		total += el
		nodes += sol.Nodes
		ok := sol.Score == f.score && err == nil
		fmt.Printf("#%d %d empties: %+d %s (want %+d %v) %v %.1f Mn %.2f Mn/s %v\n", f.number, f.pos.Empties(), sol.Score, f.pos.FormatMove(sol.Move), f.score, f.best, el.Round(time.Millisecond), float64(sol.Nodes)/1e6, float64(sol.Nodes)/el.Seconds()/1e6, ok)
	}
	fmt.Printf("total %v %.1f Mn\n", total, float64(nodes)/1e6)
}

func TestSolveFFOProof(t *testing.T) {
	if os.Getenv("FFO") == "" {
		t.Skip()
	}
	mib, _ := strconv.Atoi(os.Getenv("MIB"))
	s, _ := NewSolver(mib)
	for _, f := range ffoSuite(t) {
		var lo, hi int
		fmt.Sscanf(os.Getenv("FFO"), "%d-%d", &lo, &hi)
		if f.number < lo || f.number > hi {
			continue
		}
		s.table.clear()
		s.near.clear()
		s.nodes = 0
		p, o := f.pos.mine(), f.pos.theirs()
		n := empties(p, o)
		a := s.nws(p, o, f.score-1, n)
		n1 := s.nodes
		b := s.nws(p, o, f.score+1, n)
		fmt.Printf("#%d proof: %d %d nodes %.1f + %.1f Mn\n", f.number, a, b, float64(n1)/1e6, float64(s.nodes-n1)/1e6)
	}
}
