package chess_test

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games/chess"
)

func lines(t testing.TB, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// TestMates: well-known mates in 1, 2 and 3 moves are found with the score
// of a win in that many plies and the right first move.
func TestMates(t *testing.T) {
	s, _ := engine.New(engine.Options{TableMiB: 16})
	for _, l := range lines(t, "testdata/mates.txt") {
		parts := strings.Split(l, ";")
		fen, move := strings.TrimSpace(parts[0]), strings.TrimSpace(parts[2])
		plies, _ := strconv.Atoi(strings.TrimSpace(parts[1]))
		p, err := chess.Parse(fen)
		if err != nil {
			t.Fatal(err)
		}
		s.NewGame()
		res, err := s.Search(context.Background(), p, chess.Textbook, chess.Textbook.Defaults(), engine.Limits{Depth: plies + 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Score != engine.Mate-plies || p.FormatMove(res.Move) != move {
			t.Errorf("%s: %s with score %d, want %s mating in %d plies (%d)", fen, p.FormatMove(res.Move), res.Score, move, plies, engine.Mate-plies)
		}
	}
}

// BenchmarkSearch searches the middlegame positions of testdata to depth 6
// with the textbook evaluation.
func BenchmarkSearch(b *testing.B) {
	s, _ := engine.New(engine.Options{TableMiB: 16})
	var positions []*chess.Position
	for _, l := range lines(b, "testdata/middlegames.txt")[:4] {
		p, err := chess.Parse(l)
		if err != nil {
			b.Fatal(err)
		}
		positions = append(positions, p)
	}
	var nodes int64
	w := chess.Textbook.Defaults()
	for b.Loop() {
		for _, p := range positions {
			s.NewGame()
			res, _ := s.Search(context.Background(), p, chess.Textbook, w, engine.Limits{Depth: 6})
			nodes += res.Stats.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

func TestMiddlegamesParse(t *testing.T) {
	for _, l := range lines(t, "testdata/middlegames.txt") {
		if _, err := chess.Parse(l); err != nil {
			t.Errorf("%s: %v", l, err)
		}
	}
}
