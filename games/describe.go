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
	// Search lists the engine's search parameters and clock-use constants
	// for the game (filled in above games, where the engine is known).
	Search []Feature `json:"search,omitempty"`
}

// EvaluatorDescription is an evaluator as data: its name, what it is and
// its features; Strongest marks the game's strongest (Strongest), which
// 'tune engine' plays.
type EvaluatorDescription struct {
	Name      string    `json:"name"`
	Doc       string    `json:"doc"`
	Features  []Feature `json:"features"`
	Strongest bool      `json:"strongest,omitempty"`
}

// Describe returns the Description of g.
func Describe(g Game) Description {
	d := Description{Name: g.Name(), Doc: g.Doc(), Notation: g.Notation(), Start: g.Start().String()}
	strongest := Strongest(g).Name
	for _, e := range g.Evaluators() {
		d.Evaluators = append(d.Evaluators, EvaluatorDescription{Name: e.Name, Doc: e.Doc, Features: e.Features, Strongest: e.Name == strongest})
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
			switch {
			case j == 0:
				def = " (default)"
			case e.Strongest:
				def = " (the strongest: tune engine's default)"
			}
			fmt.Fprintf(w, "  evaluator %s%s: %s\n", e.Name, def, e.Doc)
			writeFeatures(w, "feature", e.Features)
		}
		if len(g.Search) > 0 {
			fmt.Fprintln(w, "  search parameters and clock use (tune engine's options; param.NAME=V in a match spec):")
			writeFeatures(w, "parameter", g.Search)
		}
	}
}

// writeFeatures writes features as a table whose first column is headed
// first.
func writeFeatures(w io.Writer, first string, features []Feature) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "    %s\tdefault\tmin\tmax\tstep\tmeaning\n", first)
	for _, f := range features {
		fmt.Fprintf(tw, "    %s\t%g\t%g\t%g\t%g\t%s\n", f.Name, f.Default, f.Min, f.Max, f.Step, f.Doc)
	}
	tw.Flush()
}

// Strongest is the strongest evaluator g ships, the one an engine for
// people and other programs plays ('tune engine'): the last of its
// evaluators with tables (learned from positions: g lists its evaluators
// from the simplest on), or the first when none has tables.
func Strongest(g Game) *Evaluator {
	evs := g.Evaluators()
	for i := len(evs) - 1; i >= 0; i-- {
		if len(evs[i].Tables) > 0 {
			return evs[i]
		}
	}
	return evs[0]
}
