package cluster

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"time"
)

// RunName names a tuning run on the broker (RunnerOptions.Run): a hash of
// its recorded config and its creation time, so that a resumed run finds
// the results its workers published meanwhile.
func RunName(config []byte, created time.Time) string {
	h := sha256.New()
	h.Write(config)
	h.Write([]byte(created.UTC().Format(time.RFC3339Nano)))
	return "run-" + hex.EncodeToString(h.Sum(nil)[:8])
}

// MatchName returns a new random name for an ephemeral run: a match or a
// tournament, whose jobs nobody resumes.
func MatchName() string {
	b := make([]byte, 8)
	rand.Read(b)
	return "match-" + hex.EncodeToString(b)
}

// ProcessName names this process among the workers: its host and its
// process id.
func ProcessName() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "host"
	}
	return fmt.Sprintf("%s-%d", host, os.Getpid())
}
