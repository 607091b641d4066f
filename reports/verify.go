package reports

import (
	"fmt"
	"io"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
)

// VerificationLine is a run's verification in one line (tune show, tune
// run's result, the report): "verification: g12 against the start at
// depth 6: held (H1 accepted), ...".
func VerificationLine(v *population.Verification) string {
	return "verification: " + v.Summary()
}

// writeVerification writes the verification's line, if the run has one.
func writeVerification(w io.Writer, v *population.Verification) {
	if v != nil {
		fmt.Fprintln(w, VerificationLine(v))
	}
}

// verifiedNote is what a list of runs adds to a best verified at a deeper
// search: "; verified: held" ("" when it was not verified).
func verifiedNote(b *results.BestJSON) string {
	if b == nil || b.Verified == "" {
		return ""
	}
	return "; verified: " + b.Verified
}

// verificationHTML is the report's sentence on the verification ("" when
// the run has none).
func verificationHTML(v *population.Verification) string {
	if v == nil {
		return ""
	}
	return v.Summary()
}
