package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// The shape of the house (docs/architecture.md), checked on the source so
// that it cannot drift: commands only wire, long functions are split, and
// imports point downwards.

const modulePath = "github.com/gametune/gametune"

// goFile is one non-test Go file of the module, parsed.
type goFile struct {
	pkg   string // the package's folder, relative to the module root
	name  string // the file's path, relative to the module root
	lines int
	src   string
	ast   *ast.File
	fset  *token.FileSet
}

// moduleFiles parses every non-test Go file of the module.
func moduleFiles(t *testing.T) []goFile {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	var files []goFile
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		files = append(files, goFile{pkg: path.Dir(rel), name: rel, lines: strings.Count(string(src), "\n"), src: string(src),
			ast: f, fset: fset})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("found %d Go files under %s: not the module's tree", len(files), root)
	}
	return files
}

// funcLengths calls visit with every function declaration of f and its
// length in lines, signature to closing brace.
func funcLengths(f goFile, visit func(name string, lines int)) {
	for _, d := range f.ast.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		lines := f.fset.Position(fn.End()).Line - f.fset.Position(fn.Pos()).Line + 1
		visit(fn.Name.Name, lines)
	}
}

// TestCommandsOnlyWire: cmd/tune is wiring and printing, not a library,
// and reads without scrolling sideways.
func TestCommandsOnlyWire(t *testing.T) {
	const (
		maxPackageLines = 2500
		maxFileLines    = 300
		maxFuncLines    = 60
		maxLineLength   = 120 // characters, a tab counting as one
	)
	total := 0
	for _, f := range moduleFiles(t) {
		if f.pkg != "cmd/tune" {
			continue
		}
		total += f.lines
		if f.lines > maxFileLines {
			t.Errorf("%s: %d lines; a command file holds at most %d", f.name, f.lines, maxFileLines)
		}
		for i, line := range strings.Split(f.src, "\n") {
			if n := utf8.RuneCountInString(line); n > maxLineLength {
				t.Errorf("%s:%d: %d characters; a line of a command is at most %d (break it, or move the logic out)",
					f.name, i+1, n, maxLineLength)
			}
		}
		funcLengths(f, func(name string, lines int) {
			if lines > maxFuncLines {
				t.Errorf("%s: %s is %d lines; a command function is at most %d (move the logic into a library package)", f.name, name, lines, maxFuncLines)
			}
		})
	}
	if total > maxPackageLines {
		t.Errorf("cmd/tune: %d lines of non-test code; at most %d", total, maxPackageLines)
	}
}

// TestNoLongFunctions: outside the hot paths and notation parsers of games
// and engine, no function is over 100 lines.
func TestNoLongFunctions(t *testing.T) {
	const maxLines = 100
	for _, f := range moduleFiles(t) {
		if f.pkg == "games" || strings.HasPrefix(f.pkg, "games/") || f.pkg == "engine" || strings.HasPrefix(f.pkg, "engine/") {
			continue
		}
		funcLengths(f, func(name string, lines int) {
			if lines > maxLines {
				t.Errorf("%s: %s is %d lines; at most %d outside games/ and engine/", f.name, name, lines, maxLines)
			}
		})
	}
}

// layers ranks the module's packages: a package imports only packages of
// a lower rank (the picture of docs/architecture.md, whose table of
// packages TestDocsArchitectureCited holds to this one). A new package must
// be placed here and there.
var layers = map[string]int{
	"files":                     -1,
	"games":                     -1,
	"weights":                   0,
	"tournament/stats":          0,
	"protocol/lines":            0,
	"protocol/protocoltest":     0,
	"secretfile":                0,
	"population/gp":             0,
	"games/checkers":            1,
	"games/chess":               1,
	"games/kono":                1,
	"games/nim":                 1,
	"games/othello":             1,
	"games/tictactoe":           1,
	"games/gametest":            1,
	"engine":                    1,
	"protocol/uci":              1,
	"protocol/xboard":           1,
	"protocol/gtp":              1,
	"protocol/nboard":           1,
	"protocol/terminal":         1,
	"engine/thinker":            2,
	"games/all":                 2,
	"protocol/all":              2,
	"engine/enginetest":         2,
	"tournament":                3,
	"tournament/tournamenttest": 4,
	"tournament/external":       4,
	"tournament/external/internal/testengine": 2,
	"population": 5,
	"cluster":    5,
	"learn":      4,
	"results":    6,
	"reports":    7,
	"web":        8,
	"tuning":     8,
	"cmd/tune":   9,
}

// TestImportsPointDown: every import of the module's own packages goes to
// a lower layer; nothing under games/ imports the engine or anything above
// it; cmd/tune finds games through the registry (games/all) alone.
func TestImportsPointDown(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range moduleFiles(t) {
		from, ok := layers[f.pkg]
		if !ok {
			if !seen[f.pkg] {
				t.Errorf("package %s has no layer: place it in the layers table (and in docs/architecture.md)", f.pkg)
			}
			seen[f.pkg] = true
			continue
		}
		seen[f.pkg] = true
		for _, imp := range f.ast.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			dep, ok := strings.CutPrefix(p, modulePath+"/")
			if !ok {
				continue
			}
			to, known := layers[dep]
			if known && to >= from {
				t.Errorf("%s imports %s: %s (layer %d) may import only lower layers, not %d", f.name, dep, f.pkg, from, to)
			}
			if f.pkg == "cmd/tune" && strings.HasPrefix(dep, "games/") && dep != "games/all" {
				t.Errorf("%s imports the concrete game %s: commands find games through games/all", f.name, dep)
			}
		}
	}
	for pkg := range layers {
		if !seen[pkg] {
			t.Errorf("the layers table names %s, which has no Go files: remove it", pkg)
		}
	}
}

// registryFiles may ask which tuner a run is: the registry of tuners
// (docs/architecture.md, "The registry of tuners"). Every other file asks
// a tuner's Descriptor instead.
var registryFiles = map[string]bool{"population/registry.go": true}

// tunerNames are the names of the tuner constants (Genetic, SPSA, ...),
// read from the declarations "X Algo = ..." of package population, with
// their values ("genetic", "spsa", ...).
func tunerNames(t *testing.T, files []goFile) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	for _, f := range files {
		if f.pkg != "population" {
			continue
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			v, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			if typ, isIdent := v.Type.(*ast.Ident); !isIdent || typ.Name != "Algo" {
				return true
			}
			for i, name := range v.Names {
				names[name.Name] = true
				if i < len(v.Values) {
					if lit, ok := v.Values[i].(*ast.BasicLit); ok {
						s, _ := strconv.Unquote(lit.Value)
						names[strconv.Quote(s)] = true
					}
				}
			}
			return true
		})
	}
	if len(names) < 12 {
		t.Fatalf("found the tuners %v in package population: want each constant of type Algo and its value", names)
	}
	return names
}

// algoSwitches lists, as "file:line: what", each place of f that asks
// which tuner a run is: a switch on an algorithm (a tag that mentions
// algo), a case or a comparison (== or !=) naming one tuner (a constant
// of tunerNames, or its name as a string compared with an algorithm).
func algoSwitches(fset *token.FileSet, f *ast.File, tuners map[string]bool) []string {
	mentionsAlgo := func(e ast.Expr) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && strings.Contains(strings.ToLower(id.Name), "algo") {
				found = true
			}
			return !found
		})
		return found
	}
	isTuner := func(e ast.Expr) bool {
		switch x := e.(type) {
		case *ast.Ident:
			return tuners[x.Name]
		case *ast.SelectorExpr:
			pkg, ok := x.X.(*ast.Ident)
			return ok && pkg.Name == "population" && tuners[x.Sel.Name]
		case *ast.BasicLit:
			return tuners[x.Value]
		}
		return false
	}
	var out []string
	at := func(n ast.Node, what string) {
		out = append(out, fmt.Sprintf("%s:%d: %s", fset.Position(n.Pos()).Filename, fset.Position(n.Pos()).Line, what))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SwitchStmt:
			if x.Tag != nil && mentionsAlgo(x.Tag) {
				at(x, "a switch on the algorithm")
			}
		case *ast.CaseClause:
			for _, e := range x.List {
				if _, lit := e.(*ast.BasicLit); isTuner(e) && !lit {
					at(e, "a case of one tuner")
				}
			}
		case *ast.BinaryExpr:
			if x.Op != token.EQL && x.Op != token.NEQ {
				break
			}
			for _, pair := range [][2]ast.Expr{{x.X, x.Y}, {x.Y, x.X}} {
				_, lit := pair[0].(*ast.BasicLit)
				if isTuner(pair[0]) && (!lit || mentionsAlgo(pair[1])) {
					at(x, "a comparison with one tuner")
					break
				}
			}
		}
		return true
	})
	return out
}

// TestNoSwitchOnTheAlgorithm: a tuner's knowledge lives in its Descriptor,
// registered once (population/registry.go); no code outside the registry
// switches on the algorithm or compares it with one tuner's name.
func TestNoSwitchOnTheAlgorithm(t *testing.T) {
	files := moduleFiles(t)
	tuners := tunerNames(t, files)
	for _, f := range files {
		if registryFiles[f.name] {
			continue
		}
		for _, where := range algoSwitches(f.fset, f.ast, tuners) {
			t.Errorf("%s: ask the tuner's Descriptor (population.TunerOf) instead", where)
		}
	}
}

// TestAlgoSwitchesFound: the check of TestNoSwitchOnTheAlgorithm on a
// small source: it finds a switch on the algorithm, a case of one tuner
// in a switch on something else, an if chain of comparisons and a name
// compared as a string, and lets pass a question to the registry, a
// comparison of two algorithms and an assignment of one.
func TestAlgoSwitchesFound(t *testing.T) {
	const src = `package p

func plan(c population.Config, a population.Algo, kind string) int {
	switch c.Algo {
	case population.SPSA:
		return 1
	}
	switch kind {
	case "x", population.Texel:
		return 2
	}
	if a == population.Knockout || population.CMAES != c.Algo {
		return 3
	}
	if string(c.Algo) == "bayes" {
		return 4
	}
	if kind == "genetic" || a == c.Algo {
		return 5
	}
	d, _ := population.TunerOf(c.Algo)
	c.Algo = population.Genetic
	return d.Generations(c)
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "snippet.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	tuners := map[string]bool{}
	for _, name := range []string{"Genetic", "Knockout", "SPSA", "CMAES", "Texel", "Bayes", `"genetic"`, `"knockout"`, `"spsa"`, `"cmaes"`, `"texel"`, `"bayes"`} {
		tuners[name] = true
	}
	got := algoSwitches(fset, f, tuners)
	want := []string{
		"snippet.go:4: a switch on the algorithm",
		"snippet.go:5: a case of one tuner",
		"snippet.go:9: a case of one tuner",
		"snippet.go:12: a comparison with one tuner",
		"snippet.go:12: a comparison with one tuner",
		"snippet.go:15: a comparison with one tuner",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
