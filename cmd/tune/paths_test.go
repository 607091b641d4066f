package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// awkwardNames are run names that mean something in a URI (? # %, a
// percent that reads as an escape), a space and non-ASCII letters.
var awkwardNames = []string{"C#proj", "w?x", "%41", "q?mark", "p%3Fq", "a b", "ünï-çødé", "x#y?z%&mode=ro"}

// treeOf lists every file and folder under root (relative paths, with
// their sizes for files).
func treeOf(t *testing.T, root string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		size := int64(-1)
		if !d.IsDir() {
			if st, err := d.Info(); err == nil {
				size = st.Size()
			}
		}
		out[rel] = size
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRunPathsWithSpecialCharacters: runs named with ? # %, a space and
// non-ASCII letters (the run's own folder, or a folder above it) are made
// (run), continued (resume), shown, exported, listed and served like any
// other: every file is written inside the run's folder, and the read-only
// commands create none at all.
func TestRunPathsWithSpecialCharacters(t *testing.T) {
	base := t.TempDir()
	t.Chdir(base) // the names are relative, as a user types them
	var dirs []string
	for _, name := range awkwardNames {
		dirs = append(dirs, filepath.Join("runs", name))
	}
	dirs = append(dirs, filepath.Join("C#proj", "run1"), filepath.Join("w?x", "q?mark", "run1"))
	for _, dir := range dirs {
		code, stdout, errOut := tune(t, "", "--quiet", "run", "--game", "nim", "--depth", "1", "--population", "4", "--generations", "1",
			"--games", "1", "--yardstick-pairs", "1", "--seed", "3", "--out", dir)
		if code != 0 {
			t.Fatalf("run --out %q: exit %d\n%s\n%s", dir, code, stdout, errOut)
		}
		code, stdout, errOut = tune(t, "", "resume", dir)
		if code != 0 || !strings.Contains(stdout, "finished already") {
			t.Fatalf("resume %q: exit %d\n%s\n%s", dir, code, stdout, errOut)
		}
	}
	// Every file is in a run's folder (or is a folder above one), and
	// every run's folder holds its run.
	for p := range treeOf(t, base) {
		ok := false
		for _, dir := range dirs {
			sep := string(filepath.Separator)
			ok = ok || p == "." || p == dir || strings.HasPrefix(p, dir+sep) || strings.HasPrefix(dir, p+sep)
		}
		if !ok {
			t.Errorf("%q was written outside every run folder", p)
		}
	}
	for _, dir := range dirs {
		if _, err := os.Stat(filepath.Join(dir, "run.db")); err != nil {
			t.Errorf("run %q has no database in its folder: %v", dir, err)
		}
	}

	before := treeOf(t, base)
	for _, dir := range dirs {
		code, stdout, errOut := tune(t, "", "show", dir, "--json")
		if code != 0 || !strings.Contains(stdout, `"game": "nim"`) {
			t.Errorf("show %q: exit %d\n%.300s\n%s", dir, code, stdout, errOut)
		}
		code, stdout, errOut = tune(t, "", "export", dir, "--format", "json")
		var w struct{ Game string }
		if code != 0 || json.Unmarshal([]byte(stdout), &w) != nil || w.Game != "nim" {
			t.Errorf("export %q: exit %d\n%.300s\n%s", dir, code, stdout, errOut)
		}
	}
	code, stdout, errOut := tune(t, "", "runs", "runs", "--json")
	var lines []struct{ Dir, Game string }
	if err := json.Unmarshal([]byte(stdout), &lines); code != 0 || err != nil || len(lines) != len(awkwardNames) {
		t.Errorf("runs: exit %d, %d runs (%v), want %d\n%.300s\n%s", code, len(lines), err, len(awkwardNames), stdout, errOut)
	}
	serveAwkward(t, "runs", awkwardNames)
	serveAwkward(t, "C#proj", []string{"run1"})
	serveAwkward(t, filepath.Join("w?x", "q?mark"), []string{"run1"})
	// A read-only open of a name whose first part names nothing creates
	// nothing either (the old address of runs/q?mark opened runs/q).
	tune(t, "", "show", filepath.Join("runs", "q?nothing"))
	tune(t, "", "show", filepath.Join("nothing#here", "run1"))
	if after := treeOf(t, base); !mapsEqual(before, after) {
		t.Errorf("the read-only commands changed the files:\nbefore %v\nafter  %v", before, after)
	}
}

func mapsEqual(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// serveAwkward serves the runs folder root with tune serve and reads each
// run of ids through the list, the API, its page, its games and a plot.
func serveAwkward(t *testing.T, root string, ids []string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	exit := make(chan int, 1)
	go func() {
		exit <- execute(ctx, []string{"serve", "--runs", root, "--listen", "127.0.0.1:0"}, strings.NewReader(""), out, io.Discard)
	}()
	defer func() {
		cancel()
		<-exit
	}()
	base := waitServing(t, out)
	get := func(path string) string {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Errorf("serve %q: GET %s: %d %.300s", root, path, resp.StatusCode, body)
		}
		return string(body)
	}
	var list []struct{ ID, Damaged string }
	if err := json.Unmarshal([]byte(get("api/runs")), &list); err != nil || len(list) != len(ids) {
		t.Fatalf("serve %q: runs %+v (%v), want %q", root, list, err, ids)
	}
	for _, x := range list {
		if !slices.Contains(ids, x.ID) || x.Damaged != "" {
			t.Errorf("serve %q: run %q damaged %q, want one of %q, readable", root, x.ID, x.Damaged, ids)
		}
	}
	for _, id := range ids {
		get("api/runs/" + url.PathEscape(id))
		get("runs/" + url.PathEscape(id))
		get("runs/" + url.PathEscape(id) + "/games")
		get("runs/" + url.PathEscape(id) + "/plots/fitness.svg")
	}
}

// deadPid returns the id of a process that has ended.
func deadPid(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// creating lists the hidden folders of runs being created in dir.
func creating(t *testing.T, dir string) []string {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if strings.Contains(e.Name(), ".creating-") {
			out = append(out, e.Name())
		}
	}
	return out
}

// craftCreating makes the hidden folder of a run being created, as a
// process killed while creating it leaves it (a config and a database).
func craftCreating(t *testing.T, dir, name string, age time.Duration) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(p, "config.yaml"), []byte("game: nim\n"), 0o644)
	os.WriteFile(filepath.Join(p, "run.db"), []byte("SQLite format 3\x00"), 0o644)
	if age > 0 {
		old := time.Now().Add(-age)
		os.Chtimes(p, old, old)
	}
}

// TestAbandonedCreationRemoved: the hidden folder a run's creation leaves
// when its process is killed is removed by the next runs and run in the
// same folder once its creator is gone; one whose creator runs, one that
// holds anything else, and a recent one named without its creator (by an
// older gametune) are left alone.
func TestAbandonedCreationRemoved(t *testing.T) {
	dir := t.TempDir()
	dead := deadPid(t)
	craft := func() {
		craftCreating(t, dir, fmt.Sprintf(".a.creating-%d-123", dead), 0)
		craftCreating(t, dir, ".b.creating-456", 2*time.Hour) // an older gametune's, an hour old
	}
	keep := []string{fmt.Sprintf(".c.creating-%d-789", os.Getpid()), ".d.creating-999", fmt.Sprintf(".e.creating-%d-1", dead)}
	craftCreating(t, dir, keep[0], 0)                                  // its creator runs
	craftCreating(t, dir, keep[1], 0)                                  // an older gametune's, recent
	craftCreating(t, dir, keep[2], 0)                                  // holds something else:
	os.WriteFile(filepath.Join(dir, keep[2], "notes.txt"), nil, 0o644) // left alone
	craft()
	if code, _, errOut := tune(t, "", "runs", dir); code != 0 && !strings.Contains(errOut, "no runs") {
		t.Logf("runs: exit %d %s", code, errOut)
	}
	if got := creating(t, dir); !slices.Equal(got, keep) {
		t.Errorf("after runs: %q, want %q", got, keep)
	}
	craft()
	code, _, errOut := tune(t, "", "--quiet", "run", "--game", "nim", "--depth", "1", "--population", "4", "--generations", "1",
		"--games", "1", "--yardstick-pairs", "1", "--out", filepath.Join(dir, "r"))
	if code != 0 {
		t.Fatalf("run: exit %d %s", code, errOut)
	}
	if got := creating(t, dir); !slices.Equal(got, keep) {
		t.Errorf("after run: %q, want %q", got, keep)
	}
}

// TestKilledCreationRemoved: a real tune run killed with SIGKILL while it
// creates its run leaves a hidden folder, which the next runs removes.
func TestKilledCreationRemoved(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tune")
	}
	bin := buildTune(t)
	dir := t.TempDir()
	var left []string // the hidden folders the kills left, each in its own folder
	for i := 0; i < 30 && len(left) < 3; i++ {
		// Each in its own folder: a run made beside one removes it.
		folder := filepath.Join(dir, fmt.Sprint(i))
		os.Mkdir(folder, 0o755)
		out := filepath.Join(folder, "r")
		cmd := exec.Command(bin, "run", "--game", "nim", "--depth", "1", "--population", "4", "--generations", "1",
			"--games", "1", "--yardstick-pairs", "1", "--quiet", "--out", out)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(10 * time.Second); len(creating(t, folder)) == 0 && time.Now().Before(deadline); {
			if _, err := os.Stat(out); err == nil {
				break // created before it was seen
			}
		}
		cmd.Process.Kill()
		cmd.Wait()
		if c := creating(t, folder); len(c) > 0 {
			left = append(left, folder)
		}
	}
	if len(left) == 0 {
		t.Skip("no kill landed while a run was being created (creation was too quick to catch here)")
	}
	t.Logf("%d kills left a hidden folder", len(left))
	for _, folder := range left {
		code, _, errOut := tune(t, "", "runs", folder)
		if c := creating(t, folder); len(c) != 0 {
			t.Errorf("runs %s (exit %d, %s) left %q", folder, code, errOut, c)
		}
	}
}
