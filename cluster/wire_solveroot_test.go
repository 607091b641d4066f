package cluster

import (
	"strings"
	"testing"

	"github.com/gametune/gametune/tournament"
)

// TestJobCarriesSolveRoot: a player with the end solver on
// (tournament.Search.SolveRoot, 'tune learn --end-play solver') travels
// with it, in a job of SolveRootWireVersion (a worker older than it refuses
// the job rather than play it with the engine's own endgame), under a key
// of its own; with the selective search as well it is refused still.
func TestJobCarriesSolveRoot(t *testing.T) {
	plain := matchSpecs(t, 1)[0]
	spec := plain
	spec.First.Search.SolveRoot = true
	job, err := NewJob(spec, 2)
	if err != nil {
		t.Fatal(err)
	}
	before, err := NewJob(plain, 2)
	if err != nil {
		t.Fatal(err)
	}
	if job.V != SolveRootWireVersion || before.V != WireVersion || job.Key == before.Key {
		t.Errorf("versions %d and %d, keys %s and %s: want %d and %d, two keys", job.V, before.V, job.Key, before.Key,
			SolveRootWireVersion, WireVersion)
	}
	data, err := job.Encode()
	if err != nil {
		t.Fatal(err)
	}
	_, back, err := DecodeJob(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.First.Search != (tournament.Search{SolveRoot: true}) || back.Second.Search != (tournament.Search{}) {
		t.Errorf("decoded searches %+v and %+v, want the end solver for the first player only", back.First.Search, back.Second.Search)
	}
	spec.First.Search.Selective = true
	if _, err := NewJob(spec, 2); err == nil || !strings.Contains(err.Error(), "local pool") {
		t.Errorf("a selective player with the end solver: %v, want a refusal", err)
	}
}
