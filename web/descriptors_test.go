package web

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// copyRun copies the closed run in src (its database and config) to dst.
func copyRun(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"run.db", "config.yaml", "run.lock"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// manyRuns makes n copies of a small closed run in a new folder, named
// run0000, run0001...
func manyRuns(t *testing.T, n int) string {
	t.Helper()
	tmpl := t.TempDir()
	r := makeRun(t, tmpl, "tmpl", 4, 2, 4, 2)
	r.SetStatus("done")
	r.Close()
	root := t.TempDir()
	for i := range n {
		copyRun(t, filepath.Join(tmpl, "tmpl"), filepath.Join(root, fmt.Sprintf("run%04d", i)))
	}
	return root
}

// openFiles counts this process's open descriptors.
func openFiles(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd here to count descriptors")
	}
	return len(fds)
}

// listAll reads /api/runs from url and checks that it lists n readable runs.
func listAll(t *testing.T, url string, n int) {
	t.Helper()
	resp, err := http.Get(url + "/api/runs")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var runs []Summary
	if resp.StatusCode != 200 || json.Unmarshal(body, &runs) != nil || len(runs) != n {
		t.Fatalf("/api/runs: %d, %d runs, want %d: %.300s", resp.StatusCode, len(runs), n, body)
	}
	for _, r := range runs {
		if r.Damaged != "" || r.Status != "done" || r.Done != 2 {
			t.Fatalf("run %s: %+v", r.ID, r)
		}
	}
}

// TestManyRunsFewFiles: the dashboard over 1,000 runs holds no file of a
// run between requests: after serving the list, the API and a few runs'
// pages, plots and games, the process holds about as many descriptors as
// before (the listener's and a few connections'). And it serves the whole
// folder with fewer descriptors allowed than there are runs.
func TestManyRunsFewFiles(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	root := manyRuns(t, n)
	runtime.GC()
	before := openFiles(t)
	s, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	defer s.Close()
	listAll(t, ts.URL, n)
	for _, path := range []string{"/", "/runs/run0001", "/runs/run0001/plots/fitness.svg", "/runs/run0002/games",
		"/runs/run0002/games/gen/0/0", "/api/runs/run0003", "/api/runs?sort=elo&desc=1"} {
		if resp, body := get(t, ts.URL+path); resp.StatusCode != 200 {
			t.Fatalf("%s: %d %.300s", path, resp.StatusCode, body)
		}
	}
	listAll(t, ts.URL, n) // again: from what was kept
	after := openFiles(t)
	var mem runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&mem)
	t.Logf("%d runs: %d descriptors before the server, %d after serving; Go heap %.1f MiB, resident %s", n, before, after, float64(mem.HeapAlloc)/(1<<20), resident())
	if after-before >= 50 {
		t.Errorf("the server holds %d descriptors more after serving %d runs, want fewer than 50", after-before, n)
	}

	ts.CloseClientConnections()
	ts.Close()
	s.Close()

	// Under a limit of descriptors well below the number of runs, a new
	// server lists them all.
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Skipf("no descriptor limit to lower: %v", err)
	}
	low := lim
	low.Cur = uint64(openFiles(t) + 100)
	if low.Cur >= uint64(n) {
		t.Skipf("the limit %d would not be below the %d runs", low.Cur, n)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Skipf("cannot lower the descriptor limit: %v", err)
	}
	defer syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	_, ts2 := newServer(t, root, Options{})
	listAll(t, ts2.URL, n)
	if resp, body := get(t, ts2.URL+"/runs/run0004"); resp.StatusCode != 200 {
		t.Fatalf("a run's page under %d descriptors: %d %.300s", low.Cur, resp.StatusCode, body)
	}
}

// resident is the process's resident memory (VmRSS), or "?".
func resident() string {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}
