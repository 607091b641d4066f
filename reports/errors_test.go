package reports

import (
	"errors"
	"fmt"
	"testing"
)

// TestErrorText: package names leave an error's message, wherever the
// wrapping put them; games' and protocols' names, and words that only
// look like a package's, stay.
func TestErrorText(t *testing.T) {
	for _, tc := range []struct{ err, want string }{
		{`population: games: unknown evaluator "nope" for othello: give one of report, full, patterns`,
			`unknown evaluator "nope" for othello: give one of report, full, patterns`},
		{`run: results: no run directory /x`, `run: no run directory /x`},
		{`othello: square "j9" is off the board (files a-h, ranks 1-8)`, `othello: square "j9" is off the board (files a-h, ranks 1-8)`},
		{`uci: engine said "bye"`, `uci: engine said "bye"`},
		{`the games: 3 of them`, `the games: 3 of them`},
		{`engine`, `engine`},
	} {
		if got := ErrorText(fmt.Errorf("%w", errors.New(tc.err))); got != tc.want {
			t.Errorf("ErrorText(%q) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
