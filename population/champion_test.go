package population

import (
	"strings"
	"testing"
)

// TestChampion: a generation's champion is the genome its selection
// ranked first (Generation.Best), the last generation's by default; a
// generation that is not there, or lacks its champion, is an error.
func TestChampion(t *testing.T) {
	hist := []Generation{
		{Index: 0, Best: 2, Genomes: []Genome{{ID: 1}, {ID: 2}}},
		{Index: 1, Best: 3, Genomes: []Genome{{ID: 3}, {ID: 4}}},
		{Index: 2, Best: 9, Genomes: []Genome{{ID: 5}}},
	}
	for _, tc := range []struct {
		gen, id, index int
		err            string
	}{
		{0, 2, 0, ""},
		{1, 3, 1, ""},
		{-1, 0, 0, "generation 2 lacks its champion, genome 9"},
		{7, 0, 0, "no generation 7 (the run has 0 to 2)"},
	} {
		g, index, err := Champion(hist, tc.gen)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("generation %d: %v, want %q", tc.gen, err, tc.err)
		case tc.err == "" && (err != nil || g.ID != tc.id || index != tc.index):
			t.Errorf("generation %d: genome %d of %d, %v; want %d of %d", tc.gen, g.ID, index, err, tc.id, tc.index)
		}
	}
	if _, _, err := Champion(nil, -1); err == nil || !strings.Contains(err.Error(), "no finished generation") {
		t.Errorf("no history: %v", err)
	}
}
