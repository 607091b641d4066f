package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// buildBenchRuns makes 50 runs of 35 generations of 16 genomes, a third
// of them done, the others running.
func buildBenchRuns(b *testing.B) string {
	b.Helper()
	root := b.TempDir()
	start := time.Now()
	for i := range 50 {
		r := makeRun(b, root, fmt.Sprintf("run-%02d", i), 40, 35, 16, 2)
		if i%3 == 0 {
			r.SetStatus("done")
		}
	}
	b.Logf("50 runs of 35 generations built in %v", time.Since(start))
	return root
}

// BenchmarkRunsList serves the runs list (the HTML page and /api/runs) of
// 50 runs of 35 generations: the work of every request once the server has
// read each run (a stat of each run's files), and, apart, the first request
// of a new server (opening and reading every run). The bar: under
// 100 ms.
func BenchmarkRunsList(b *testing.B) {
	root := buildBenchRuns(b)
	for _, path := range []string{"/", "/api/runs"} {
		b.Run("warm"+path, func(b *testing.B) {
			s, err := New(root, Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			serve(b, s, path) // read every run once
			for b.Loop() {
				serve(b, s, path)
			}
		})
	}
	b.Run("cold/", func(b *testing.B) {
		cpu := cpuTime()
		for b.Loop() {
			s, err := New(root, Options{})
			if err != nil {
				b.Fatal(err)
			}
			serve(b, s, "/")
			s.Close()
		}
		// The CPU time of the process, every thread's: on a machine shared
		// with other work, it varies less than the time per request.
		b.ReportMetric(float64(cpuTime()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	})
}

func serve(b *testing.B, s *Server, path string) {
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	if w.Code != http.StatusOK {
		b.Fatalf("%s: status %d", path, w.Code)
	}
}

// TestRunsListFast is the benchmark's check in every test run, smaller:
// 10 runs of 35 generations, the list in well under 100 ms once read.
func TestRunsListFast(t *testing.T) {
	root := t.TempDir()
	for i := range 10 {
		makeRun(t, root, fmt.Sprintf("run-%02d", i), 40, 35, 16, 1)
	}
	s, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	get := func() time.Duration {
		start := time.Now()
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/", nil))
		if w.Code != 200 {
			t.Fatalf("status %d", w.Code)
		}
		return time.Since(start)
	}
	cold := get()
	warm := get()
	t.Logf("10 runs: first list %v, then %v", cold, warm)
	if warm > 50*time.Millisecond {
		t.Errorf("the list of 10 runs took %v once read", warm)
	}
}
