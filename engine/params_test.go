package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
)

func TestSearchParamListNamesAndRanges(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range engine.SearchParamList() {
		if seen[p.Name] {
			t.Errorf("search parameter %q listed twice", p.Name)
		}
		seen[p.Name] = true
		if p.Doc == "" || strings.Contains(p.Doc, "\n") {
			t.Errorf("%s: doc %q must be one line", p.Name, p.Doc)
		}
		if p.Default < p.Min || p.Default > p.Max || p.Min > p.Max {
			t.Errorf("%s: default %g outside [%g, %g]", p.Name, p.Default, p.Min, p.Max)
		}
	}
	if err := engine.DefaultSearchParams(nil).Check(); err != nil {
		t.Error(err)
	}
}

func TestSearchParamsRefuseBadValues(t *testing.T) {
	base := engine.DefaultSearchParams(nil)
	for _, tc := range []struct {
		name string
		v    float64
		want string
	}{
		{"no-such-thing", 1, `no search parameter "no-such-thing"`},
		{"null-reduction", 0, "null-reduction = 0: want a whole number from 1 to 6"},
		{"lmr-base", 2.5, "lmr-base = 2.5: want a whole number from 0 to 300"},
	} {
		_, err := engine.SearchParamsFrom(base, map[string]float64{tc.name: tc.v})
		if !errors.Is(err, engine.ErrSearchParam) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s = %v: got %v, want an error with %q", tc.name, tc.v, err, tc.want)
		}
	}
	p, err := engine.SearchParamsFrom(base, map[string]float64{"null-reduction": 4})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := p.Get("null-reduction"); v != 4 || p.NullReduction != 4 {
		t.Errorf("null-reduction read back %v (field %d), want 4", v, p.NullReduction)
	}
	bad := base
	bad.RazorMaxDepth = 99
	if _, err := engine.New(engine.Options{Selective: true, Params: bad}); err == nil || !strings.Contains(err.Error(), "razor-max-depth = 99") {
		t.Errorf("New with razor-max-depth 99: got %v", err)
	}
}
