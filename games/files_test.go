package games_test

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
)

func writeFile(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReadWeightsLimit: ReadWeights reads a weights file but not one
// larger than MaxWeightsFile, nor an endless one.
func TestReadWeightsLimit(t *testing.T) {
	g := tictactoe.Game()
	ev, _ := games.FindEvaluator(g, "")
	var file bytes.Buffer
	if err := games.WriteWeights(&file, g, ev, ev.Defaults(), nil); err != nil {
		t.Fatal(err)
	}
	if _, w, err := games.ReadWeights(writeFile(t, file.Bytes()), g); err != nil || len(w) != len(ev.Features) {
		t.Fatalf("a weights file: %v %v", w, err)
	}
	// The same file padded with spaces to the limit reads; one more byte
	// does not.
	padded := append(file.Bytes(), bytes.Repeat([]byte{' '}, games.MaxWeightsFile-file.Len())...)
	if _, _, err := games.ReadWeights(writeFile(t, padded), g); err != nil {
		t.Fatalf("a weights file of exactly MaxWeightsFile bytes: %v", err)
	}
	_, _, err := games.ReadWeights(writeFile(t, append(padded, ' ')), g)
	if !errors.Is(err, games.ErrTooLarge) || !strings.Contains(err.Error(), "larger than 4 MiB") {
		t.Errorf("ReadWeights of 4 MiB + 1 byte: %v, want ErrTooLarge saying larger than 4 MiB", err)
	}
	// An endless device, a named pipe and a directory are refused at once.
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for path, kind := range map[string]string{"/dev/zero": "a device", fifo: "a named pipe (FIFO)", t.TempDir(): "a directory"} {
		_, _, err := games.ReadWeights(path, g)
		if !errors.Is(err, files.ErrNotRegular) || !strings.Contains(err.Error(), path+" is not a regular file: it is "+kind) {
			t.Errorf("ReadWeights(%s): %v, want refused as %s", path, err, kind)
		}
	}
}
