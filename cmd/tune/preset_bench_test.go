package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkPresetOthelloReport runs the othello-report preset as a user
// does: the tune binary built with its profile (default.pgo), one worker per
// core, the ladder included. It reports the wall time of a run (the speed
// issue's target: 150 s on 2 cores), its CPU time and games per second.
// About 2.5 minutes a run; run it alone on an idle machine:
//
//	go test ./cmd/tune -run '^$' -bench PresetOthelloReport -benchtime 1x
func BenchmarkPresetOthelloReport(b *testing.B) {
	bin := buildTune(b)
	var cpu float64
	var games int
	for b.Loop() {
		cmd := exec.Command(bin, "run", "--preset", "othello-report", "--quiet", "--out", filepath.Join(b.TempDir(), "run"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("tune run --preset othello-report: %v\n%s", err, out)
		}
		cpu += (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
		var gens, n int
		if _, err := fmt.Sscanf(string(out), "%d generations, %d games", &gens, &n); err != nil || gens != 35 {
			b.Fatalf("the run's summary does not start with its 35 generations and its games (%v):\n%s", err, out)
		}
		games += n
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/run")
	b.ReportMetric(cpu/float64(b.N), "cpu-s/run")
	b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(0, "ns/op")
}
