package main

import (
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
		files = append(files, goFile{pkg: path.Dir(rel), name: rel, lines: strings.Count(string(src), "\n"), ast: f, fset: fset})
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

// TestCommandsOnlyWire: cmd/tune is wiring and printing, not a library.
func TestCommandsOnlyWire(t *testing.T) {
	const (
		maxPackageLines = 2500
		maxFileLines    = 300
		maxFuncLines    = 60
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
	"games":                     0,
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
	"learn":      5,
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
