package reports

import (
	"io"
	"strings"
)

// packagePrefixes are the names of gametune's library packages that begin
// the messages of their errors ("population: ", "games: "). A user reads
// an error without them: they name code, not what went wrong. The names
// of games ("othello: square ...") and protocols ("uci: ...") stay: they
// say where the fault is.
var packagePrefixes = []string{"population", "games", "engine", "thinker", "tournament", "external",
	"stats", "results", "reports", "tuning", "web", "secretfile", "lines"}

// ErrorText is err's message for a user: every package name that begins
// the message or one of its wrapped parts ("tune: population: games:
// unknown evaluator" once) left out.
func ErrorText(err error) string {
	parts := strings.Split(err.Error(), ": ")
	kept := parts[:0]
	for _, p := range parts {
		if !isPackagePrefix(p) {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return err.Error()
	}
	return strings.Join(kept, ": ")
}

func isPackagePrefix(s string) bool {
	for _, p := range packagePrefixes {
		if s == p {
			return true
		}
	}
	return false
}

// CheckedWriter keeps the first error of the writes to W, so that a
// command whose results could not be written (a full disk, a closed pipe)
// fails although it printed with fmt.Fprintf and ignored the error. After
// the first error it writes nothing more; Err is that error.
type CheckedWriter struct {
	W   io.Writer
	Err error
}

func (c *CheckedWriter) Write(p []byte) (int, error) {
	if c.Err != nil {
		return 0, c.Err
	}
	n, err := c.W.Write(p)
	if err != nil {
		c.Err = err
	}
	return n, err
}
