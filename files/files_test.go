package files_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gametune/gametune/files"
)

func writeFile(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// mkfifo makes a named pipe in a new temporary folder.
func mkfifo(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	return path
}

// TestOpenRefusesSpecialFiles: a named pipe (no writer: an open for reading
// would wait for one for ever), a device and a directory are refused at
// once, saying what they are; a regular file and a link to one open.
func TestOpenRefusesSpecialFiles(t *testing.T) {
	fifo := mkfifo(t)
	cases := map[string]string{fifo: "a named pipe (FIFO)", t.TempDir(): "a directory"}
	if _, err := os.Stat("/dev/null"); err == nil {
		cases["/dev/null"] = "a device"
	}
	for path, kind := range cases {
		done := make(chan error, 1)
		go func() {
			f, err := files.Open(path)
			if err == nil {
				f.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			want := path + " is not a regular file: it is " + kind + " (give the path of a plain file)"
			if !errors.Is(err, files.ErrNotRegular) || err.Error() != want {
				t.Errorf("Open(%s): %v; want %q", path, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Open(%s) still blocked after 10 s", path)
		}
	}
	plain := writeFile(t, []byte("w"))
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(plain, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	for _, path := range []string{plain, link} {
		f, err := files.Open(path)
		if err != nil {
			t.Fatalf("Open(%s): %v", path, err)
		}
		f.Close()
	}
	if _, err := files.Open(filepath.Join(t.TempDir(), "none")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}

func TestReadLimited(t *testing.T) {
	const limit = 1000
	tests := []struct {
		name    string
		size    int
		tooBig  bool
		message string
	}{
		{"empty", 0, false, ""},
		{"at the limit", limit, false, ""},
		{"one byte over", limit + 1, true, "larger than 1000 bytes"},
		{"far over", 10 * limit, true, "larger than 1000 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := bytes.Repeat([]byte{'w'}, tc.size)
			path := writeFile(t, want)
			got, err := files.ReadLimited(path, limit)
			if tc.tooBig {
				if !errors.Is(err, files.ErrTooLarge) || !strings.Contains(err.Error(), tc.message) || got != nil {
					t.Fatalf("ReadLimited: %d bytes, %v; want ErrTooLarge saying %q", len(got), err, tc.message)
				}
				return
			}
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("ReadLimited: %d bytes, %v; want the %d bytes written", len(got), err, tc.size)
			}
		})
	}
	t.Run("missing", func(t *testing.T) {
		_, err := files.ReadLimited(filepath.Join(t.TempDir(), "none"), limit)
		if !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("missing file: %v, want fs.ErrNotExist", err)
		}
	})
	t.Run("endless device", func(t *testing.T) {
		if _, err := os.Stat("/dev/zero"); err != nil {
			t.Skip("no /dev/zero here")
		}
		_, err := files.ReadLimited("/dev/zero", 4<<20)
		if !errors.Is(err, files.ErrNotRegular) || !strings.Contains(err.Error(), "/dev/zero is not a regular file: it is a device") {
			t.Fatalf("/dev/zero: %v, want refused as a device", err)
		}
	})
	t.Run("named pipe", func(t *testing.T) {
		if _, err := files.ReadLimited(mkfifo(t), limit); !errors.Is(err, files.ErrNotRegular) {
			t.Fatalf("a named pipe: %v, want ErrNotRegular", err)
		}
	})
}

// TestCheckWritable: a destination is checked before the work: a missing
// folder, a file where the folder should be, a folder that takes no file,
// an existing file (without overwrite) and a special file are refused with
// the reason; a new file in a writable folder passes, and nothing is left.
func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, []byte("kept"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := mkfifo(t)
	for _, tc := range []struct {
		path      string
		overwrite bool
		want      string
	}{
		{filepath.Join(dir, "none", "x.gtw"), false, "the folder " + filepath.Join(dir, "none") + " does not exist (create it first)"},
		{filepath.Join(plain, "x.gtw"), false, plain + " is a regular file, not a folder"},
		{plain, false, "the file exists already: " + plain},
		{fifo, true, fifo + " is a named pipe (FIFO); it was left as it is"},
		{dir, true, dir + " is a directory; it was left as it is"},
	} {
		if err := files.CheckWritable(tc.path, tc.overwrite); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckWritable(%s, %v): %v; want %q", tc.path, tc.overwrite, err, tc.want)
		}
	}
	for _, path := range []string{filepath.Join(dir, "new.gtw"), plain} {
		if err := files.CheckWritable(path, true); err != nil {
			t.Errorf("CheckWritable(%s, true): %v", path, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the checks left %d entries in the folder, want only the file there before", len(entries))
	}
	// /proc takes no new file, even from root (whom permissions do not stop).
	if st, err := os.Stat("/proc/self"); err == nil && st.IsDir() {
		if err := files.CheckWritable("/proc/x.gtw", false); err == nil || !strings.Contains(err.Error(), "the folder /proc takes no new file") {
			t.Errorf("CheckWritable in /proc: %v", err)
		}
	}
}

// TestWriteOrKeep: a write that fails for want of its folder (removed after
// the check) keeps the data in a file named in the error.
func TestWriteOrKeep(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "gone")
	if err := os.Mkdir(gone, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(gone, "x.gtw")
	if err := files.CheckWritable(path, false); err != nil {
		t.Fatal(err)
	}
	os.Remove(gone)
	err := files.WriteOrKeep(path, []byte("a night's work"), false)
	if err == nil {
		t.Fatal("a write into a removed folder succeeded")
	}
	_, kept, ok := strings.Cut(err.Error(), "the result is kept in ")
	kept, _, _ = strings.Cut(kept, " (move it")
	if !ok || !strings.HasPrefix(filepath.Base(kept), "x.gtw.kept-") {
		t.Fatalf("error %q names no kept file", err)
	}
	defer os.Remove(kept)
	if data, rerr := os.ReadFile(kept); rerr != nil || string(data) != "a night's work" {
		t.Fatalf("the kept file %s holds %q (%v)", kept, data, rerr)
	}
	// The path's own faults are not kept: they are checked before the work.
	plain := writeFile(t, []byte("old"))
	if err := files.WriteOrKeep(plain, []byte("new"), false); !errors.Is(err, files.ErrExists) || strings.Contains(err.Error(), "kept") {
		t.Errorf("an existing file: %v, want ErrExists and nothing kept", err)
	}
}
