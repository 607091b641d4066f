package secretfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name    string
		content string
		mode    os.FileMode
		want    string // a part of the error; "" for none
	}{
		{"owner only", "tok\n", 0o600, ""},
		{"read only", "tok\n", 0o400, ""},
		{"world readable", "tok", 0o644, "readable by everyone (mode -rw-r--r--)"},
		{"group readable", "tok", 0o640, "readable by its group (mode -rw-r-----)"},
		{"group writable", "tok", 0o620, "writable by its group"},
		{"too large", strings.Repeat("x", MaxSize+1), 0o600, "holds 16385 bytes (at most 16384)"},
	} {
		if runtime.GOOS == "windows" && c.mode != 0o600 {
			continue
		}
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-"))
		if err := os.WriteFile(path, []byte(c.content), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, c.mode); err != nil {
			t.Fatal(err)
		}
		got, err := Read(path, "token file")
		if c.want == "" {
			if err != nil || string(got) != c.content {
				t.Errorf("%s: %q, %v", c.name, got, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrUnsafe) || !strings.Contains(err.Error(), "token file "+path) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
	if _, err := Read(dir, "token file"); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "none"), "token file"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
	if _, err := Read("/dev/zero", "token file"); err == nil || !strings.Contains(err.Error(), "is a device") {
		t.Errorf("/dev/zero: %v", err)
	}
}

// TestReadFIFO: a named pipe nobody writes to is refused at once, not
// waited on.
func TestReadFIFO(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no named pipes in the file system")
	}
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := Read(path, "token file")
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Fatalf("a FIFO: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Read blocked on a FIFO for 10 seconds")
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte("tok\n"))
	f.Add([]byte(""))
	path := filepath.Join(f.TempDir(), "secret")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := Read(path, "secret")
		if len(data) > MaxSize {
			if err == nil {
				t.Fatalf("%d bytes accepted", len(data))
			}
			return
		}
		if err != nil || string(got) != string(data) {
			t.Fatalf("%q: %q, %v", data, got, err)
		}
	})
}
