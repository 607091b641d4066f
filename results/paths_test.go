package results

import (
	"io/fs"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestFileURI: the SQLite address of a path escapes every byte that a URI
// would read otherwise (known answers).
func TestFileURI(t *testing.T) {
	cases := []struct{ path, want string }{
		{"runs/a/run.db", "file:runs/a/run.db?Q"},
		{"runs/q?mark/run.db", "file:runs/q%3Fmark/run.db?Q"},
		{"C#proj/run1/run.db", "file:C%23proj/run1/run.db?Q"},
		{"/t/%41/run.db", "file:/t/%2541/run.db?Q"},
		{"a b/ü&x=y/run.db", "file:a%20b/%C3%BC%26x%3Dy/run.db?Q"},
	}
	for _, c := range cases {
		if got := fileURI(c.path, "Q"); got != c.want {
			t.Errorf("fileURI(%q) = %q, want %q", c.path, got, c.want)
		}
	}
}

// names lists the files below dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return err
	})
	return out
}

// TestPathsWithSpecialCharacters: runs in folders named with ? # %, a
// space and non-ASCII letters keep every file in their folder; reading
// them creates no file at all, and a writer waits for a reader's read to
// end.
func TestPathsWithSpecialCharacters(t *testing.T) {
	for _, name := range []string{"q?mark", "C#proj", "%41", "p%3Fq", "a b", "ünï"} {
		t.Run(name, func(t *testing.T) {
			base := t.TempDir()
			dir := filepath.Join(base, name, "run")
			r, err := Create(dir, []byte("game: nim\n"), "nim", "genetic", 1, "test")
			if err != nil {
				t.Fatal(err)
			}
			if in, err := r.Info(); err != nil || in.Game != "nim" {
				t.Fatalf("info %+v %v", in, err)
			}
			r.Close()
			want := []string{".", name, filepath.Join(name, "run"), filepath.Join(name, "run", ConfigName),
				filepath.Join(name, "run", DBName), filepath.Join(name, "run", LockName)}
			if got := names(t, base); !slices.Equal(got, want) {
				t.Fatalf("files %q, want %q", got, want)
			}
			ro, err := OpenReadOnly(dir)
			if err != nil {
				t.Fatal(err)
			}
			if in, err := ro.Info(); err != nil || in.Game != "nim" {
				t.Fatalf("read-only info %+v %v", in, err)
			}
			if got := names(t, base); !slices.Equal(got, want) {
				t.Errorf("a read-only open made files: %q, want %q", got, want)
			}
			// A writer waits for the reader.
			opened := make(chan error, 1)
			go func() {
				w, err := Open(dir)
				if err == nil {
					w.Close()
				}
				opened <- err
			}()
			time.Sleep(50 * time.Millisecond)
			select {
			case err := <-opened:
				t.Fatalf("a writer opened the run while it was read as immutable (%v)", err)
			default:
			}
			ro.Close()
			if err := <-opened; err != nil {
				t.Fatalf("the writer after the reader: %v", err)
			}
			if _, err := OpenReadOnly(filepath.Join(base, name, "none")); err == nil {
				t.Error("a missing run opened")
			}
			if got := names(t, base); !slices.Equal(got, want) {
				t.Errorf("files after the writer and a missing run: %q, want %q", got, want)
			}
		})
	}
}

// TestReaderKeepsNoWriterOut: a reader opened while a writer works
// shares the writer's WAL and sees its commits; it keeps nothing out.
func TestReaderKeepsNoWriterOut(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	w, err := Create(dir, []byte("game: nim\n"), "nim", "genetic", 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// While a writer works, readers share its WAL: they neither wait nor
	// keep it from writing.
	ro, err := OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if err := w.SetStatus(StatusRunning); err != nil {
		t.Fatal(err)
	}
	if in, err := ro.Info(); err != nil || in.Status != StatusRunning {
		t.Errorf("a reader beside the writer reads %q (%v), want running", in.Status, err)
	}
}
