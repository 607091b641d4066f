package population

import (
	"os"
	"testing"
)

// longChecks tells whether the long checks run: with GAMETUNE_LONG=1 (the
// second step of .ci/run, and the README's long command), never with
// -short. The README's test command leaves them out so that it runs in
// minutes; each has a shorter form that always runs, or is a strength match.
func longChecks() bool { return os.Getenv("GAMETUNE_LONG") == "1" && !testing.Short() }

// long skips t, a check of more than about ten seconds, unless longChecks.
func long(t *testing.T, what string) {
	t.Helper()
	if !longChecks() {
		t.Skip(what + ": a long check, run with GAMETUNE_LONG=1")
	}
}
