package main

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The README is a front door and the rest lives in docs/ (STYLE.md's
// "Docs"): these tests keep it so. They read files only.

// docsPages are the pages docs/ must hold: each area a reader who has not
// seen the code looks for.
var docsPages = []string{
	"architecture.md", // packages, layers, contracts (the layers test cites it)
	"tuners.md",       // what "best" means, budgets, verification, each tuner
	"learn.md",        // tune learn
	"engine.md",       // search, protocols, external engines, openings
	"cluster.md",      // NATS workers
	"experiments.md",  // every measurement with its command
}

// repoFile reads a file of the repository, by its path from the root.
func repoFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// markdownFiles lists README.md and every docs/*.md, by path from the root.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	for _, d := range docs {
		files = append(files, "docs/"+filepath.Base(d))
	}
	return files
}

// TestREADMEIsAFrontDoor: the README says what gametune is, how to install
// it, its two commands and its commands, and links the rest: at most 200
// lines.
func TestREADMEIsAFrontDoor(t *testing.T) {
	const maxLines = 200
	readme := repoFile(t, "README.md")
	if n := strings.Count(readme, "\n"); n > maxLines {
		t.Errorf("README.md is %d lines; at most %d (move the detail into docs/)", n, maxLines)
	}
	for _, want := range []string{"## Installing", "## Two commands", "## The commands", "go test ./..."} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md lacks %q", want)
		}
	}
}

// TestDocsPages: docs/ holds its pages, and the README links every page
// of docs/ (none is an orphan).
func TestDocsPages(t *testing.T) {
	readme := repoFile(t, "README.md")
	files := markdownFiles(t)
	for _, p := range docsPages {
		if !slices.Contains(files, "docs/"+p) {
			t.Errorf("docs/%s is missing", p)
		}
	}
	for _, f := range files[1:] {
		if !strings.Contains(readme, "("+f+")") {
			t.Errorf("README.md does not link %s", f)
		}
	}
}

var (
	fence      = regexp.MustCompile("(?s)```.*?```")
	codeSpan   = regexp.MustCompile("`[^`\n]*`")
	mdLink     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdHeading  = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *#*$`)
	mdSchemeRe = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown text: lower case, inline code marks and punctuation dropped,
// spaces as hyphens, a repeated anchor numbered -1, -2, ...
func headingAnchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, m := range mdHeading.FindAllStringSubmatch(fence.ReplaceAllString(text, ""), -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			seen[a]++
			a += "-" + strconv.Itoa(n)
		} else {
			seen[a] = 1
		}
		anchors[a] = true
	}
	return anchors
}

func TestDocsHeadingAnchors(t *testing.T) {
	got := headingAnchors("# A `tune serve` page\n## What \"best\" means\n```\n# not a heading\n```\n## Speed of pst's search\n## Speed of pst's search\n")
	for _, want := range []string{"a-tune-serve-page", "what-best-means", "speed-of-psts-search", "speed-of-psts-search-1"} {
		if !got[want] {
			t.Errorf("no anchor %q among %v", want, got)
		}
	}
	if len(got) != 4 {
		t.Errorf("anchors %v: want 4 (a fenced line is no heading)", got)
	}
}

// TestDocsLinksResolve: every relative link of README.md and docs/*.md
// reaches a file of the repository, and its #fragment, if any, a heading
// of that file.
func TestDocsLinksResolve(t *testing.T) {
	links := 0
	for _, f := range markdownFiles(t) {
		text := codeSpan.ReplaceAllString(fence.ReplaceAllString(repoFile(t, f), ""), "")
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if mdSchemeRe.MatchString(target) {
				continue // a web address
			}
			links++
			file, frag, _ := strings.Cut(target, "#")
			dest := f
			if file != "" {
				dest = path.Join(path.Dir(f), file)
			}
			if strings.HasPrefix(dest, "../") || path.IsAbs(file) {
				t.Errorf("%s: link %s leaves the repository", f, target)
				continue
			}
			info, err := os.Stat(filepath.Join("..", "..", filepath.FromSlash(dest)))
			if err != nil {
				t.Errorf("%s: link %s: %s does not exist", f, target, dest)
				continue
			}
			if frag == "" {
				continue
			}
			if info.IsDir() || !strings.HasSuffix(dest, ".md") {
				t.Errorf("%s: link %s: a #fragment needs a Markdown file", f, target)
				continue
			}
			if !headingAnchors(repoFile(t, dest))[frag] {
				t.Errorf("%s: link %s: %s has no heading #%s", f, target, dest, frag)
			}
		}
	}
	if links < 50 {
		t.Errorf("found %d relative links in README.md and docs/: not the project's docs", links)
	}
}

// TestDocsArchitectureCited: the layers test cites docs/architecture.md,
// the page that draws the layers, and no longer a DESIGN.md the repository
// does not hold; that page names every package of the layers table at its
// layer.
func TestDocsArchitectureCited(t *testing.T) {
	house := repoFile(t, "cmd/tune/house_test.go")
	if !strings.Contains(house, "docs/architecture.md") {
		t.Error("cmd/tune/house_test.go does not cite docs/architecture.md")
	}
	if strings.Contains(house, "DESIGN"+".md") {
		t.Error("cmd/tune/house_test.go cites DESIGN.md, which the repository does not hold")
	}
	// The table's rows: | `pkg`, `pkg` | layer | what it holds |
	row := regexp.MustCompile("(?m)^\\| *((?:`[^`]+`(?:, )?)+) *\\| *(-?\\d+) *\\|")
	pkg := regexp.MustCompile("`([^`]+)`")
	listed := map[string]int{}
	for _, m := range row.FindAllStringSubmatch(repoFile(t, "docs/architecture.md"), -1) {
		layer, _ := strconv.Atoi(m[2])
		for _, p := range pkg.FindAllStringSubmatch(m[1], -1) {
			listed[p[1]] = layer
		}
	}
	for p, layer := range layers {
		got, ok := listed[p]
		switch {
		case !ok:
			t.Errorf("docs/architecture.md's table of packages lacks %s (layer %d)", p, layer)
		case got != layer:
			t.Errorf("docs/architecture.md puts %s in layer %d; the layers table, %d", p, got, layer)
		}
	}
	for p := range listed {
		if _, ok := layers[p]; !ok {
			t.Errorf("docs/architecture.md lists %s, which the layers table does not hold", p)
		}
	}
}
