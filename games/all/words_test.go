package all

import (
	"regexp"
	"testing"

	"github.com/gametune/gametune/games"
)

// citation matches words that point at a document the user does not have
// (the report, the course, the article, the magazine).
var citation = regexp.MustCompile(`(?i)report|course|article|magazine|exercise`)

// TestDescriptionsSelfContained checks that every game's, evaluator's and
// feature's description says what it is without citing a document: none
// names a report, a course, an article, a magazine or an exercise, and
// none is empty.
func TestDescriptionsSelfContained(t *testing.T) {
	check := func(what, text string) {
		t.Helper()
		if text == "" {
			t.Errorf("%s has no description", what)
		}
		if w := citation.FindString(text); w != "" {
			t.Errorf("%s cites %q: %q", what, w, text)
		}
	}
	n := 0
	for _, g := range Games() {
		d := games.Describe(g)
		check("game "+d.Name, d.Doc)
		check("game "+d.Name+"'s notation", d.Notation)
		for _, e := range d.Evaluators {
			check("evaluator "+d.Name+"/"+e.Name, e.Doc)
			for _, f := range e.Features {
				check("feature "+d.Name+"/"+e.Name+"/"+f.Name, f.Doc)
				n++
			}
		}
	}
	if n < 40 {
		t.Errorf("checked %d features, want every game's (at least 40)", n)
	}
}
