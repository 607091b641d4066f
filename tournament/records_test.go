package tournament

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// TestRecordFile: a new file gets one line per game (tic-tac-toe has no
// record format of its own), is never overwritten, and closes once; a nil
// file has nothing to close.
func TestRecordFile(t *testing.T) {
	g, _ := all.Find("tictactoe")
	path := filepath.Join(t.TempDir(), "games.txt")
	f, err := CreateRecordFile(path, g)
	if err != nil {
		t.Fatal(err)
	}
	r := Record{Outcome: games.Draw, Reason: "rule", Opening: "start", Moves: []string{"b2", "a1"}}
	if err := f.WriteGame(g, "a", "b", r); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Errorf("second close: %v", err)
	}
	data, _ := os.ReadFile(path)
	if want := "tictactoe | a | b | start | b2 a1 | " + games.Draw.String() + " | rule\n"; string(data) != want {
		t.Errorf("%q, want %q", data, want)
	}
	if _, err := CreateRecordFile(path, g); !errors.Is(err, os.ErrExist) {
		t.Errorf("existing file: %v", err)
	}
	var none *RecordFile
	if err := none.Close(); err != nil {
		t.Errorf("nil file: %v", err)
	}
}
