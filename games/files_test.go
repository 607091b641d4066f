package games_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

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

func TestReadFileLimited(t *testing.T) {
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
			got, err := games.ReadFileLimited(path, limit)
			if tc.tooBig {
				if !errors.Is(err, games.ErrTooLarge) || !strings.Contains(err.Error(), tc.message) || got != nil {
					t.Fatalf("ReadFileLimited: %d bytes, %v; want ErrTooLarge saying %q", len(got), err, tc.message)
				}
				return
			}
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("ReadFileLimited: %d bytes, %v; want the %d bytes written", len(got), err, tc.size)
			}
		})
	}
	t.Run("missing", func(t *testing.T) {
		_, err := games.ReadFileLimited(filepath.Join(t.TempDir(), "none"), limit)
		if !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("missing file: %v, want fs.ErrNotExist", err)
		}
	})
	t.Run("dev zero", func(t *testing.T) {
		if _, err := os.Stat("/dev/zero"); err != nil {
			t.Skip("no /dev/zero here")
		}
		_, err := games.ReadFileLimited("/dev/zero", 4<<20)
		if !errors.Is(err, games.ErrTooLarge) || !strings.Contains(err.Error(), "/dev/zero is larger than 4 MiB") {
			t.Fatalf("/dev/zero: %v, want ErrTooLarge saying it is larger than 4 MiB", err)
		}
	})
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
	big := []string{writeFile(t, append(padded, ' '))}
	if _, err := os.Stat("/dev/zero"); err == nil {
		big = append(big, "/dev/zero")
	}
	for _, path := range big {
		_, _, err := games.ReadWeights(path, g)
		if !errors.Is(err, games.ErrTooLarge) || !strings.Contains(err.Error(), "larger than 4 MiB") {
			t.Errorf("ReadWeights(%s): %v, want ErrTooLarge saying larger than 4 MiB", path, err)
		}
	}
}
