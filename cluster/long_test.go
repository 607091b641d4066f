package cluster

import (
	"os"
	"testing"
)

// longChecks tells whether the long checks run: with GAMETUNE_LONG=1 (the
// second step of .ci/run), never with -short.
func longChecks() bool { return os.Getenv("GAMETUNE_LONG") == "1" && !testing.Short() }

// long skips t, a check of more than about ten seconds, unless longChecks.
func long(t *testing.T, what string) {
	t.Helper()
	if !longChecks() {
		t.Skip(what + ": a long check, run with GAMETUNE_LONG=1")
	}
}
