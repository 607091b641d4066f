package engine_test

import (
	"errors"
	"reflect"
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

// TestSearchParamsEachField: every field of SearchParams is one listed
// parameter: setting a parameter from its minimum to its maximum changes
// that field alone, and the list has one parameter a field.
func TestSearchParamsEachField(t *testing.T) {
	list := engine.SearchParamList()
	if n := reflect.TypeOf(engine.SearchParams{}).NumField(); n != len(list) {
		t.Fatalf("SearchParams has %d fields, the list %d parameters", n, len(list))
	}
	changed := map[int]string{}
	for _, p := range list {
		lo, err := engine.SearchParamsFrom(engine.DefaultSearchParams(nil), map[string]float64{p.Name: p.Min})
		if err != nil {
			t.Fatal(err)
		}
		hi, err := engine.SearchParamsFrom(lo, map[string]float64{p.Name: p.Max})
		if err != nil {
			t.Fatal(err)
		}
		a, b := reflect.ValueOf(lo), reflect.ValueOf(hi)
		var fields []int
		for i := 0; i < a.NumField(); i++ {
			if a.Field(i).Int() != b.Field(i).Int() {
				fields = append(fields, i)
			}
		}
		if len(fields) != 1 {
			t.Errorf("%s changes fields %v, want one", p.Name, fields)
			continue
		}
		if other, ok := changed[fields[0]]; ok {
			t.Errorf("%s and %s set the same field", p.Name, other)
		}
		changed[fields[0]] = p.Name
		if v, err := hi.Get(p.Name); err != nil || v != p.Max || hi.Values()[p.Name] != p.Max {
			t.Errorf("%s reads back %v (%v), want %g", p.Name, v, err, p.Max)
		}
	}
}
