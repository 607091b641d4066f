package games

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// Description is a game as data (the JSON of 'tune games'): its name,
// what it is, its notation, its start position and its evaluators, the
// default first.
type Description struct {
	Name       string                 `json:"name"`
	Doc        string                 `json:"doc"`
	Notation   string                 `json:"notation"`
	Start      string                 `json:"start"`
	Evaluators []EvaluatorDescription `json:"evaluators"`
}

// EvaluatorDescription is an evaluator as data: its name, what it is and
// its features.
type EvaluatorDescription struct {
	Name     string    `json:"name"`
	Doc      string    `json:"doc"`
	Features []Feature `json:"features"`
}

// Describe returns the Description of g.
func Describe(g Game) Description {
	d := Description{Name: g.Name(), Doc: g.Doc(), Notation: g.Notation(), Start: g.Start().String()}
	for _, e := range g.Evaluators() {
		d.Evaluators = append(d.Evaluators, EvaluatorDescription{Name: e.Name, Doc: e.Doc, Features: e.Features})
	}
	return d
}

// WriteDescriptions writes the games of list for a person: each game's
// notation and start, and each evaluator's features in a table.
func WriteDescriptions(w io.Writer, list []Description) {
	for i, g := range list {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s: %s\n  notation: %s\n  start: %s\n", g.Name, g.Doc, g.Notation, g.Start)
		for j, e := range g.Evaluators {
			def := ""
			if j == 0 {
				def = " (default)"
			}
			fmt.Fprintf(w, "  evaluator %s%s: %s\n", e.Name, def, e.Doc)
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "    feature\tdefault\tmin\tmax\tstep\tmeaning")
			for _, f := range e.Features {
				fmt.Fprintf(tw, "    %s\t%g\t%g\t%g\t%g\t%s\n", f.Name, f.Default, f.Min, f.Max, f.Step, f.Doc)
			}
			tw.Flush()
		}
	}
}
