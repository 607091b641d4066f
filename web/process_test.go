package web

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	builtTune string
	buildErr  error
)

// buildTune builds the tune command once for the tests of this package.
func buildTune(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "web-test-tune-")
		if err != nil {
			buildErr = err
			return
		}
		builtTune = filepath.Join(dir, "tune")
		out, err := exec.Command("go", "build", "-o", builtTune, "github.com/gametune/gametune/cmd/tune").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtTune
}

func TestMain(m *testing.M) {
	code := m.Run()
	if builtTune != "" {
		os.RemoveAll(filepath.Dir(builtTune))
	}
	os.Exit(code)
}

// TestRealRun serves a folder while a real `tune run` process writes a run
// in it: the event stream announces each generation as it closes and the
// end of the run, and every route answers throughout.
func TestRealRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs tune; TestEventsWhileWriting is the fast version")
	}
	tune := buildTune(t)
	root := t.TempDir()
	const generations = 5
	cmd := exec.Command(tune, "run", "--game", "othello", "--evaluator", "report", "--depth", "2", "--population", "8",
		"--generations", fmt.Sprint(generations), "--games", "2", "--yardstick-pairs", "2", "--openings", "random:6",
		"--seed", "3", "--workers", "1", "--quiet", "--out", filepath.Join(root, "live"))
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })

	_, ts := newServer(t, root, Options{Poll: 100 * time.Millisecond})
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(root, "live", "run.db")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("tune run made no run in 30 s: %s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	stream := openEvents(t, ts.URL+"/runs/live/events")
	hello := stream.next(t, 5*time.Second)
	t.Logf("hello: %d generations done, %d games, %s", hello.sum.Done, hello.sum.Games, hello.sum.Status)

	// Read every route while the run is written.
	stop := make(chan struct{})
	readErr := make(chan error, 1)
	go func() {
		defer close(readErr)
		paths := []string{"/", "/api/runs", "/runs/live", "/api/runs/live", "/runs/live/games", "/runs/live/plots/fitness.svg"}
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			p := paths[i%len(paths)]
			resp, err := http.Get(ts.URL + p)
			if err != nil {
				readErr <- err
				return
			}
			resp.Body.Close()
			ok := resp.StatusCode == 200 || (p == "/runs/live/plots/fitness.svg" && resp.StatusCode == 404) // before generation 0 closes
			if !ok {
				readErr <- fmt.Errorf("%s: status %d while the run is written", p, resp.StatusCode)
				return
			}
			time.Sleep(30 * time.Millisecond)
		}
	}()

	seen := map[int]bool{}
	last := hello.sum.Done
	for status := hello.sum.Status; status != "done"; {
		ev := stream.next(t, 60*time.Second)
		if ev.sum.Damaged != "" {
			t.Fatalf("the run being written is listed as damaged: %s", ev.sum.Damaged)
		}
		if ev.name == "generation" {
			if ev.sum.Done <= last {
				t.Errorf("generation event goes from %d to %d", last, ev.sum.Done)
			}
			seen[ev.sum.Done] = true
			last = ev.sum.Done
		}
		status = ev.sum.Status
	}
	close(stop)
	if err := <-readErr; err != nil {
		t.Error(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("tune run: %v\n%s", err, out.String())
	}
	if last != generations || len(seen) < 2 {
		t.Errorf("saw generation events for %v, ending at %d of %d", seen, last, generations)
	}
	resp, body := get(t, ts.URL+"/api/runs/live")
	if resp.StatusCode != 200 || !strings.Contains(body, `"status": "done"`) || !strings.Contains(body, fmt.Sprintf(`"done": %d`, generations)) {
		t.Errorf("after the run: %d %.300s", resp.StatusCode, body)
	}
}
