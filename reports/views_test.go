package reports

import (
	"testing"

	"github.com/gametune/gametune/population"
)

// TestEveryViewDrawn: every view a registered tuner names has its drawer
// here, and every drawer here is named by some tuner (none is dead).
func TestEveryViewDrawn(t *testing.T) {
	used := map[string]bool{}
	for _, d := range population.Tuners() {
		v := d.Report
		if lineViews[v.Line] == nil {
			t.Errorf("%s: no line view %q", d.Algo, v.Line)
		}
		used["line "+v.Line] = true
		if len(v.Figures) == 0 || len(v.History) == 0 {
			t.Errorf("%s names no figure or no history table: %+v", d.Algo, v)
		}
		for _, name := range v.Figures {
			if figureViews[name] == nil {
				t.Errorf("%s: no figure view %q", d.Algo, name)
			}
			used["figure "+name] = true
		}
		for _, name := range v.History {
			if historyViews[name] == nil {
				t.Errorf("%s: no history view %q", d.Algo, name)
			}
			used["history "+name] = true
		}
	}
	for kind, views := range map[string][]string{"line": keys(lineViews), "figure": keys(figureViews), "history": keys(historyViews)} {
		for _, name := range views {
			if !used[kind+" "+name] {
				t.Errorf("the %s view %q is drawn for no tuner", kind, name)
			}
		}
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
