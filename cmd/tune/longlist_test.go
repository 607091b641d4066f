package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLongChecksRunInCI: every test that calls long or longChecks (itself
// or through a helper of its package) is in .ci/run's LONG_TESTS, which
// runs them with GAMETUNE_LONG=1, and that list names no other: a long
// check left out of it would run nowhere.
func TestLongChecksRunInCI(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]map[string][]string{} // package folder -> function -> functions it calls
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		pkg := filepath.Dir(p)
		if calls[pkg] == nil {
			calls[pkg] = map[string][]string{}
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil || fn.Recv != nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					if id, ok := c.Fun.(*ast.Ident); ok {
						calls[pkg][fn.Name.Name] = append(calls[pkg][fn.Name.Name], id.Name)
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, funcs := range calls {
		isLong := map[string]bool{"long": true, "longChecks": true}
		for changed := true; changed; {
			changed = false
			for name, callees := range funcs {
				if !isLong[name] && slices.ContainsFunc(callees, func(c string) bool { return isLong[c] }) {
					isLong[name], changed = true, true
				}
			}
		}
		for name := range isLong {
			if strings.HasPrefix(name, "Test") {
				found = append(found, name)
			}
		}
	}
	listed := ciLongTests(t, filepath.Join(root, ".ci", "run"))
	slices.Sort(found)
	found = slices.Compact(found)
	for _, name := range found {
		if !slices.Contains(listed, name) {
			t.Errorf("%s calls long (GAMETUNE_LONG) but is not in .ci/run's LONG_TESTS: it would run nowhere", name)
		}
	}
	for _, name := range listed {
		if !slices.Contains(found, name) {
			t.Errorf(".ci/run's LONG_TESTS names %s, which calls no long: remove it", name)
		}
	}
}

// ciLongTests reads the names between "LONG_TESTS=(" and ")" in .ci/run.
func ciLongTests(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(data), "LONG_TESTS=(\n")
	list, _, ok2 := strings.Cut(list, "\n)")
	if !ok || !ok2 {
		t.Fatalf("%s has no LONG_TESTS=( ... ) list", path)
	}
	return strings.Fields(list)
}
