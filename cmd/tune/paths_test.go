package main

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
