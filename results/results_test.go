package results

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/gametune/gametune/protocol/uci"
	"go/parser"
	"go/token"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/weights"
)

// recordedRun makes a real run of a small genetic tuning of tic-tac-toe in
// a new directory and returns it open.
func recordedRun(t *testing.T) (*Run, population.Config) {
	t.Helper()
	cfg := population.Defaults()
	cfg.Game, cfg.Depth, cfg.Openings = "tictactoe", 2, ""
	cfg.Population, cfg.Generations, cfg.Games, cfg.YardstickPairs = 6, 3, 2, 2
	cfg.YardstickEvery = 1 // a yardstick every generation: the reads below check each one's
	dir := filepath.Join(t.TempDir(), "run")
	r, err := Create(dir, cfg.Marshal(), cfg.Game, string(cfg.Algo), cfg.Seed, "test")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := all.Find(cfg.Game)
	pool, _ := tournament.NewPool(2, 1)
	tu, err := population.NewTuner(cfg, g, nil, nil, pool, r)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetStatus("running"); err != nil {
		t.Fatal(err)
	}
	if _, err := tu.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := r.SetStatus("done"); err != nil {
		t.Fatal(err)
	}
	return r, cfg
}

// TestStoreRoundTrip: what a tuner records reads back identical.
func TestStoreRoundTrip(t *testing.T) {
	r, cfg := recordedRun(t)
	defer r.Close()
	mem := population.NewMemoryStore()
	g, _ := all.Find(cfg.Game)
	pool, _ := tournament.NewPool(1, 1)
	tu, _ := population.NewTuner(cfg, g, nil, nil, pool, mem)
	tu.Run(context.Background())
	got, err := r.Generations()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, mem.Generations) {
		t.Fatalf("generations read back differ:\n%+v\nwant\n%+v", got[0], mem.Generations[0])
	}
	in, err := r.Info()
	if err != nil {
		t.Fatal(err)
	}
	if in.Status != "done" || in.Generations != 3 || in.Games != mem.Games() || in.Game != "tictactoe" {
		t.Fatalf("info %+v", in)
	}
	if !bytes.Equal(r.Config(), cfg.Marshal()) {
		t.Fatal("config differs")
	}
	disk, err := os.ReadFile(filepath.Join(r.Dir(), ConfigName))
	if err != nil || !bytes.Equal(disk, cfg.Marshal()) {
		t.Fatalf("config.yaml: %v", err)
	}
	// Reopen: the games are found again.
	r.Close()
	r2, err := Open(r.Dir())
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	res, ok, err := r2.Game(population.GameKey{Stage: population.StageGeneration, Generation: 0, Index: 0})
	if err != nil || !ok || res.Record.Plies == 0 {
		t.Fatalf("game 0: %+v %v %v", res, ok, err)
	}
}

func TestCreateRefusesExisting(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
	if _, err := Create(dir, []byte("x: 1\n"), "tictactoe", "genetic", 1, "test"); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Fatalf("got %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(data) != "mine" {
		t.Fatal("the user's file changed")
	}
}

// TestOpenErrors: a missing directory, a folder that is not a run, a
// truncated database and a file of garbage each give a clear error, and
// nothing is overwritten.
func TestOpenErrors(t *testing.T) {
	if _, err := Open(filepath.Join(t.TempDir(), "nope")); err == nil || !strings.Contains(err.Error(), "no run directory") {
		t.Errorf("missing: %v", err)
	}
	if _, err := Open(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a gametune run") {
		t.Errorf("empty dir: %v", err)
	}
	r, _ := recordedRun(t)
	dir := r.Dir()
	r.Close()
	path := filepath.Join(dir, DBName)
	data, _ := os.ReadFile(path)
	for name, content := range map[string][]byte{
		"truncated": data[:50],
		"garbage":   bytes.Repeat([]byte("not a database "), 500),
		"torn":      append(append([]byte(nil), data[:4096]...), bytes.Repeat([]byte{0xff}, 4096)...),
	} {
		os.WriteFile(path, content, 0o644)
		os.Remove(path + "-wal")
		os.Remove(path + "-shm")
		_, err := Open(dir)
		if err == nil || !(strings.Contains(err.Error(), "damaged") || strings.Contains(err.Error(), "truncated") || strings.Contains(err.Error(), "no run record")) {
			t.Errorf("%s: %v", name, err)
		}
		after, _ := os.ReadFile(path)
		if !bytes.Equal(after, content) {
			t.Errorf("%s: the damaged file was changed", name)
		}
	}
}

// TestReadOnlyDirectory: a run directory that cannot be written is refused
// for resuming, with a clear error, and can still be read. The directory is
// made read-only with a read-only bind mount when running as root (where
// file modes do not stop writes), with chmod otherwise.
func TestReadOnlyDirectory(t *testing.T) {
	r, _ := recordedRun(t)
	dir := r.Dir()
	r.Close()
	target := dir
	if os.Geteuid() == 0 {
		target = filepath.Join(t.TempDir(), "ro")
		os.Mkdir(target, 0o755)
		if out, err := exec.Command("mount", "--bind", "-o", "ro", dir, target).CombinedOutput(); err != nil {
			t.Skipf("cannot make a read-only mount here: %v %s", err, out)
		}
		t.Cleanup(func() { exec.Command("umount", target).Run() })
	} else {
		os.Chmod(dir, 0o555)
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
	}
	if _, err := Open(target); err == nil || !strings.Contains(err.Error(), "not writable") {
		t.Fatalf("read-only dir: %v", err)
	}
	ro, err := OpenReadOnly(target)
	if err != nil {
		t.Fatalf("reading a read-only run: %v", err)
	}
	defer ro.Close()
	if h, err := ro.Generations(); err != nil || len(h) != 3 {
		t.Fatalf("generations: %d %v", len(h), err)
	}
}

// TestExport: every format of the best genome; json reads back as the same
// weights, the Go file parses, the C header compiles when a compiler is
// present; csv is identical for two runs of one seed.
func TestExport(t *testing.T) {
	r, cfg := recordedRun(t)
	defer r.Close()
	g, _ := all.Find(cfg.Game)
	ev, _ := games.FindEvaluator(g, cfg.Evaluator)
	hist, _ := r.Generations()
	best, _, err := population.Champion(hist, -1)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range weights.Formats {
		data, err := Export(f, g, ev, hist, -1, nil)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		path := filepath.Join(dir, "w."+f)
		if err := WriteFileAtomic(path, data, false); err != nil {
			t.Fatal(err)
		}
		if err := WriteFileAtomic(path, data, false); !errors.Is(err, ErrFileExists) {
			t.Errorf("%s: overwritten without force: %v", f, err)
		}
		switch f {
		case "json":
			ev2, w, err := weights.Read(path, g)
			if err != nil || ev2.Name != ev.Name || !reflect.DeepEqual(w, best.Weights) {
				t.Errorf("json round trip: %v %v, want %v", w, err, best.Weights)
			}
		case "go":
			if _, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.AllErrors); err != nil {
				t.Errorf("go export does not parse: %v\n%s", err, data)
			}
		case "c":
			cc, err := exec.LookPath("cc")
			if err != nil {
				t.Log("no C compiler: the header is not compiled")
				continue
			}
			if out, err := exec.Command(cc, "-fsyntax-only", "-Wall", "-Werror", "-x", "c", path).CombinedOutput(); err != nil {
				t.Errorf("C header does not compile: %v\n%s\n%s", err, out, data)
			}
		case "uci":
			// Read back as 'tune engine' reads its options: the same weights.
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			if len(lines) != len(ev.Features) {
				t.Fatalf("uci: %d lines for %d features", len(lines), len(ev.Features))
			}
			for i, f := range ev.Features {
				value, ok := strings.CutPrefix(lines[i], "setoption name "+f.Name+" value ")
				if !ok {
					t.Fatalf("uci line %q", lines[i])
				}
				w, err := uci.Weight(f, value)
				if err != nil || math.Abs(w-best.Weights[i]) > 1e-9 {
					t.Errorf("uci: %s reads back as %g (%v), want %g", f.Name, w, err, best.Weights[i])
				}
			}
		case "csv":
			r2, _ := recordedRun(t)
			hist2, _ := r2.Generations()
			r2.Close()
			data2, _ := Export("csv", g, ev, hist2, -1, nil)
			if !bytes.Equal(data, data2) {
				t.Error("two runs of one seed export different csv")
			}
			if lines := strings.Count(string(data), "\n"); lines != 1+3*6 {
				t.Errorf("csv has %d lines, want 19", lines)
			}
		}
	}
	if _, err := Export("yaml", g, ev, hist, -1, nil); err == nil {
		t.Error("unknown format accepted")
	}
	if _, err := Export("json", g, ev, hist, 9, nil); err == nil || !strings.Contains(err.Error(), "no generation 9") {
		t.Errorf("generation 9: %v", err)
	}
}

func TestWriteFileAtomicRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.json")
	if err := os.WriteFile(target, []byte("kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	for _, overwrite := range []bool{false, true} {
		if err := WriteFileAtomic(link, []byte("new\n"), overwrite); !errors.Is(err, ErrNotRegular) {
			t.Errorf("symlink, overwrite %v: %v, want ErrNotRegular", overwrite, err)
		}
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v %v", st.Mode(), err)
	}
	if data, _ := os.ReadFile(target); string(data) != "kept\n" {
		t.Errorf("the link's target was changed: %q", data)
	}
	if err := WriteFileAtomic(dir, []byte("x"), true); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a directory: %v, want ErrNotRegular", err)
	}
	if _, err := os.Lstat("/dev/null"); err == nil {
		// As root, a rename over /dev/null would succeed: the check must come first.
		if err := WriteFileAtomic("/dev/null", []byte("x"), true); !errors.Is(err, ErrNotRegular) {
			t.Errorf("/dev/null: %v, want ErrNotRegular", err)
		}
	}
	if err := WriteFileAtomic(target, []byte("new\n"), true); err != nil {
		t.Fatalf("a regular file with overwrite: %v", err)
	}
	if data, _ := os.ReadFile(target); string(data) != "new\n" {
		t.Errorf("overwritten file holds %q", data)
	}
}

// TestCreateRace creates one run directory from many goroutines at once:
// exactly one wins, and the directory holds its config.
func TestCreateRace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	const n = 8
	errs := make(chan error, n)
	runs := make(chan *Run, n)
	for i := range n {
		go func() {
			r, err := Create(dir, []byte(fmt.Sprintf("seed: %d\n", i)), "nim", "genetic", uint64(i), "test")
			if err == nil {
				runs <- r
			}
			errs <- err
		}()
	}
	won := 0
	for range n {
		err := <-errs
		switch {
		case err == nil:
			won++
		case !errors.Is(err, ErrExists) && !errors.Is(err, ErrInUse):
			t.Errorf("a losing Create: %v, want ErrExists", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d Creates succeeded, want 1", won)
	}
	r := <-runs
	defer r.Close()
	file, err := os.ReadFile(filepath.Join(dir, ConfigName))
	if err != nil || string(file) != string(r.Config()) {
		t.Fatalf("config.yaml %q, the database's config %q (%v)", file, r.Config(), err)
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("left beside the run: %d entries, want only the run", len(entries))
	}
}

func TestOpenLocks(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	r, err := Create(dir, []byte("game: nim\n"), "nim", "genetic", 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(dir)
	if !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Fatalf("second Open: %v, want ErrInUse naming pid %d", err, os.Getpid())
	}
	ro, err := OpenReadOnly(dir)
	if err != nil {
		t.Fatalf("a reader is not kept out by the lock: %v", err)
	}
	ro.Close()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	r2, err := Open(dir)
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	r2.Close()
}

// TestRecordTime: a running run's time grows at each RecordTime, and the
// end of the session adds only what came after the last one.
func TestRecordTime(t *testing.T) {
	r, err := Create(filepath.Join(t.TempDir(), "run"), []byte("game: nim\n"), "nim", "genetic", 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.RecordTime(); err != nil {
		t.Fatal(err) // not running: nothing to add
	}
	r.SetStatus(StatusRunning)
	time.Sleep(30 * time.Millisecond)
	if err := r.RecordTime(); err != nil {
		t.Fatal(err)
	}
	in, _ := r.Info()
	if in.Seconds < 0.03 || in.Seconds > 5 {
		t.Fatalf("after 30 ms running: %g s recorded", in.Seconds)
	}
	r.SetStatus(StatusDone)
	end, _ := r.Info()
	if end.Seconds < in.Seconds || end.Seconds > in.Seconds+1 {
		t.Fatalf("the end added %g s to %g s", end.Seconds-in.Seconds, in.Seconds)
	}
}

// TestChampions: the cheap read holds every generation's record and
// yardstick, and of its genomes the yardstick's only, identical to what
// Generations reads; ChooseBest names the same best from either.
func TestChampions(t *testing.T) {
	r, cfg := recordedRun(t)
	defer r.Close()
	full, err := r.Generations()
	if err != nil {
		t.Fatal(err)
	}
	// A generation without a yardstick match has no champion.
	extra := full[len(full)-1]
	extra.Index, extra.Yardstick = extra.Index+1, nil
	if err := r.RecordGeneration(extra); err != nil {
		t.Fatal(err)
	}
	full, err = r.Generations()
	if err != nil {
		t.Fatal(err)
	}
	light, err := r.Champions()
	if err != nil {
		t.Fatal(err)
	}
	if len(light) != len(full) {
		t.Fatalf("%d generations, want %d", len(light), len(full))
	}
	for i, g := range full {
		want := g
		want.Matches, want.Genomes = nil, nil
		for _, x := range g.Genomes {
			if g.Yardstick != nil && x.ID == g.Yardstick.Genome {
				want.Genomes = append(want.Genomes, x)
			}
		}
		if (g.Yardstick == nil) != (i == len(full)-1) || len(want.Genomes) != len(light[i].Genomes) {
			t.Fatalf("generation %d: yardstick %+v, %d genomes", g.Index, g.Yardstick, len(light[i].Genomes))
		}
		if !reflect.DeepEqual(light[i], want) {
			t.Errorf("generation %d reads\n%+v\nwant\n%+v", g.Index, light[i], want)
		}
	}
	g, _ := all.Find(cfg.Game)
	ev, err := games.FindEvaluator(g, cfg.Evaluator)
	if err != nil {
		t.Fatal(err)
	}
	a, errA := population.ChooseBest(ev, cfg, full, nil, nil)
	b, errB := population.ChooseBest(ev, cfg, light, nil, nil)
	if errA != nil || errB != nil || !reflect.DeepEqual(fmt.Sprint(a), fmt.Sprint(b)) {
		t.Errorf("ChooseBest: %+v (%v) from Generations, %+v (%v) from Champions", a, errA, b, errB)
	}
}

// TestDataVersion: a reader's DataVersion changes when a writer commits a
// change (the run is done: each status below is a change), and not
// without one.
func TestDataVersion(t *testing.T) {
	r, _ := recordedRun(t)
	defer r.Close()
	ro, err := OpenReadOnly(r.Dir())
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	v0, err := ro.DataVersion()
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := ro.DataVersion(); v != v0 {
		t.Errorf("DataVersion changed from %d to %d with no commit", v0, v)
	}
	for i, status := range []Status{StatusRunning, StatusInterrupted, StatusDone} {
		if err := r.SetStatus(status); err != nil {
			t.Fatal(err)
		}
		v, err := ro.DataVersion()
		if err != nil || v == v0 {
			t.Fatalf("commit %d: DataVersion %d, was %d (%v)", i, v, v0, err)
		}
		v0 = v
	}
}
