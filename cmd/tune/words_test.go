package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gametune/gametune/population"
)

// TestGenerationNumbersAgree runs a real tuning run and checks that the
// terminal's progress line and tune show's yardstick row name the same
// generation by the same number, counted from 1: each yardstick row of
// show ("  N  genome ...  +E Elo [L, H]") has a progress line "generation
// N/2: ..., yardstick +E Elo [L, H]" with the same rating, and the first
// generation is 1 in both.
func TestGenerationNumbersAgree(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	code, _, progress := tune(t, "", "run", "--game", "tictactoe", "--depth", "1", "--population", "4", "--generations", "2",
		"--games", "1", "--yardstick-pairs", "1", "--yardstick-every", "1", "--ladder-pairs", "-1", "--out", dir)
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, progress)
	}
	code, show, errOut := tune(t, "", "show", dir)
	if code != 0 {
		t.Fatalf("show: exit %d: %s", code, errOut)
	}
	terminal := map[string]string{} // generation number -> yardstick rating
	for _, m := range regexp.MustCompile(`generation (\d+)/2: .*, yardstick ([-+]\d+ Elo \[[^\]]*\])`).FindAllStringSubmatch(progress, -1) {
		terminal[m[1]] = m[2]
	}
	rows := regexp.MustCompile(`(?m)^  (\d+)\s+\d+\s+\d+\s+\d+-\d+-\d+\s+.*?([-+]\d+ Elo \[[^\]]*\])$`).FindAllStringSubmatch(show, -1)
	if len(rows) != 2 || len(terminal) != 2 {
		t.Fatalf("want 2 yardstick rows in show and 2 progress lines, got %d and %d:\n%s\n%s", len(rows), len(terminal), show, progress)
	}
	for _, r := range rows {
		if got, ok := terminal[r[1]]; !ok || got != r[2] {
			t.Errorf("show's generation %s has yardstick %q, the terminal's generation %s has %q (found %v):\n%s\n%s", r[1], r[2], r[1], got, ok, show, progress)
		}
	}
	if rows[0][1] != "1" || !strings.Contains(progress, "generation 1/2: ") {
		t.Errorf("the first generation is %s in show, want 1 as on the terminal:\n%s\n%s", rows[0][1], show, progress)
	}
	// The API (show --json) counts the same way: a label gN is generation N,
	// and the yardstick's rows are generations 1 and 2.
	_, data, _ := tune(t, "", "show", dir, "--json")
	var v struct {
		Best struct {
			Label      string
			Generation int
		}
		Ladder *struct {
			Entries []struct {
				Label      string
				Generation int
			}
		}
		Yardstick []struct{ Generation int }
	}
	if err := json.Unmarshal([]byte(data), &v); err != nil {
		t.Fatal(err)
	}
	label := func(l string, gen int) {
		if want := "g" + strconv.Itoa(gen); strings.HasPrefix(l, "g") && l != want || !strings.HasPrefix(l, "g") && gen != 0 {
			t.Errorf("label %q with generation %d in the API", l, gen)
		}
	}
	label(v.Best.Label, v.Best.Generation)
	if v.Ladder != nil {
		for _, e := range v.Ladder.Entries {
			label(e.Label, e.Generation)
		}
	}
	if len(v.Yardstick) != 2 || v.Yardstick[0].Generation != 1 || v.Yardstick[1].Generation != 2 {
		t.Errorf("the API's yardstick generations are %+v, want 1 and 2", v.Yardstick)
	}
}

// TestPresetCountsPairs reads each genetic preset's description in tune
// run's help and checks it counts what its games key counts, pairs (two
// games from one opening, colours swapped): it says "N pairs" for the
// preset's games setting N, and a count of games, if it gives one, is 2N.
// The help of the games key says pairs too.
func TestPresetCountsPairs(t *testing.T) {
	code, help, errOut := tune(t, "", "run", "--help")
	if code != 0 {
		t.Fatalf("run --help: exit %d: %s", code, errOut)
	}
	flat := strings.Join(strings.Fields(help), " ")
	checked := 0
	for _, name := range population.PresetNames() {
		c := population.Defaults()
		if err := population.ApplyPreset(&c, name); err != nil {
			t.Fatal(err)
		}
		if c.Algo != population.Genetic {
			continue
		}
		m := regexp.MustCompile(regexp.QuoteMeta(name) + `: ([^;]*)`).FindStringSubmatch(flat)
		if m == nil {
			t.Errorf("run --help does not describe the preset %s:\n%s", name, help)
			continue
		}
		desc := m[1]
		if !strings.Contains(desc, fmt.Sprintf("%d pairs", c.Games)) {
			t.Errorf("preset %s plays %d pairs per genome (games: %d), its description does not say so: %q", name, c.Games, c.Games, desc)
		}
		for _, g := range regexp.MustCompile(`(\d+) games`).FindAllStringSubmatch(desc, -1) {
			if g[1] != strconv.Itoa(2*c.Games) {
				t.Errorf("preset %s's description counts %s games, its %d pairs are %d games: %q", name, g[1], c.Games, 2*c.Games, desc)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Error("no genetic preset checked")
	}
	if !regexp.MustCompile(`--games int +genetic: [^\n]*pairs`).MatchString(help) {
		t.Errorf("the help of --games does not say it counts pairs:\n%s", help)
	}
}

// TestPairsAlias: --pairs and a config's pairs key set the genetic games
// key (which counts pairs) like --games; a config giving both is an error
// naming the line.
func TestPairsAlias(t *testing.T) {
	root := t.TempDir()
	base := []string{"run", "--game", "tictactoe", "--depth", "1", "--population", "4", "--generations", "1",
		"--yardstick-pairs", "0", "--ladder-pairs", "-1", "--quiet"}
	dir := filepath.Join(root, "flag")
	if code, _, errOut := tune(t, "", append(base, "--pairs", "3", "--out", dir)...); code != 0 {
		t.Fatalf("run --pairs 3: exit %d: %s", code, errOut)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "config.yaml")); err != nil || !regexp.MustCompile(`(?m)^games: 3$`).Match(data) {
		t.Errorf("run --pairs 3 recorded %v:\n%s, want games: 3", err, data)
	}
	conf := filepath.Join(root, "pairs.yaml")
	os.WriteFile(conf, []byte("pairs: 2\n"), 0o644)
	dir = filepath.Join(root, "config")
	if code, _, errOut := tune(t, "", append(base, "--config", conf, "--out", dir)...); code != 0 {
		t.Fatalf("run with pairs: 2 in its config: exit %d: %s", code, errOut)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "config.yaml")); err != nil || !regexp.MustCompile(`(?m)^games: 2$`).Match(data) {
		t.Errorf("a config's pairs: 2 recorded %v:\n%s, want games: 2", err, data)
	}
	os.WriteFile(conf, []byte("games: 2\npairs: 3\n"), 0o644)
	code, _, errOut := tune(t, "", append(base, "--config", conf, "--out", filepath.Join(root, "both"))...)
	if code == 0 || !strings.Contains(errOut, "line 2: pairs sets games, set already on line 1") {
		t.Errorf("a config with games and pairs: exit %d, %q; want an error naming line 2", code, errOut)
	}
}

// TestErrorsWithoutPackagePaths: errors reach the user without the names
// of the packages that wrapped them ("tune: population: games: unknown
// evaluator" once), and say what to give instead.
func TestErrorsWithoutPackagePaths(t *testing.T) {
	dir := t.TempDir()
	pkg := regexp.MustCompile(`\b(population|games|engine|thinker|tournament|external|stats|results|reports|tuning|web): `)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--game", "othello", "--evaluator", "nope", "--out", filepath.Join(dir, "x")},
			`tune: unknown evaluator "nope" for othello: give one of report, full, patterns`},
		{[]string{"match", "--game", "chess", "--a", "default:nope", "--b", "default", "--pairs", "1"},
			`tune: unknown evaluator "nope" for chess: give one of`},
		{[]string{"show", filepath.Join(dir, "none")}, "tune: "},
	} {
		code, _, errOut := tune(t, "", tc.args...)
		if code == 0 || !strings.HasPrefix(errOut, tc.want) || pkg.MatchString(errOut) {
			t.Errorf("%v: exit %d, stderr %q: want it to start %q, with no package name", tc.args, code, errOut, tc.want)
		}
	}
}
