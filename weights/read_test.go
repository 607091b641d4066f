package weights_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gametune/gametune/files"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/tictactoe"
	"github.com/gametune/gametune/weights"
)

func writeFile(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReadWeightsLimit: Read reads a weights file but not one
// larger than MaxJSONFile, nor an endless one.
func TestReadWeightsLimit(t *testing.T) {
	g := tictactoe.Game()
	ev, _ := games.FindEvaluator(g, "")
	var file bytes.Buffer
	if err := weights.Write(&file, g, ev, ev.Defaults(), nil); err != nil {
		t.Fatal(err)
	}
	if _, w, err := weights.Read(writeFile(t, file.Bytes()), g); err != nil || len(w) != len(ev.Features) {
		t.Fatalf("a weights file: %v %v", w, err)
	}
	// The same file padded with spaces to the limit reads; one more byte
	// does not.
	padded := append(file.Bytes(), bytes.Repeat([]byte{' '}, weights.MaxJSONFile-file.Len())...)
	if _, _, err := weights.Read(writeFile(t, padded), g); err != nil {
		t.Fatalf("a weights file of exactly MaxJSONFile bytes: %v", err)
	}
	_, _, err := weights.Read(writeFile(t, append(padded, ' ')), g)
	if !errors.Is(err, weights.ErrTooLarge) || !strings.Contains(err.Error(), "larger than 4 MiB") {
		t.Errorf("Read of 4 MiB + 1 byte: %v, want ErrTooLarge saying larger than 4 MiB", err)
	}
	// An endless device, a named pipe and a directory are refused at once.
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for path, kind := range map[string]string{"/dev/zero": "a device", fifo: "a named pipe (FIFO)", t.TempDir(): "a directory"} {
		_, _, err := weights.Read(path, g)
		if !errors.Is(err, files.ErrNotRegular) || !strings.Contains(err.Error(), path+" is not a regular file: it is "+kind) {
			t.Errorf("Read(%s): %v, want refused as %s", path, err, kind)
		}
	}
}

// FuzzParseJSON: whatever a JSON weights file holds, what Parse accepts
// passes the evaluator's check.
func FuzzParseJSON(f *testing.F) {
	f.Add([]byte(`{"game": "tictactoe", "evaluator": "lines", "weights": {"open-mine": 1, "open-theirs": -1, "threats-mine": 2, "threats-theirs": -2}}`))
	f.Add([]byte(`{"game": "tictactoe", "weights": {}}`))
	f.Add([]byte(`{"game": "tictactoe", "evaluator": "lines", "weights": {"open-mine": 1e999}}`))
	f.Add([]byte(`[]`))
	g := tictactoe.Game()
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, w, err := weights.Parse(data, g)
		if err != nil {
			return
		}
		if err := ev.Check(w); err != nil {
			t.Fatalf("accepted weights fail the check: %v", err)
		}
	})
}
