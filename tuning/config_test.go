package tuning

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gametune/gametune/population"
)

// writeFile writes data to a new file and returns its path.
func writeFile(t *testing.T, data string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSettings: a preset, then the file, then the flags given, each over
// the one before; --budget-games 0 is refused; a bad key names the file.
func TestSettings(t *testing.T) {
	flags := population.Defaults()
	flags.Depth, flags.Population, flags.Seed = 3, 30, 99
	given := map[string]bool{"depth": true}
	s := Settings{Preset: "othello-report", File: writeFile(t, "generations: 7\ndepth: 5\n"), Flags: &flags, Changed: func(f string) bool { return given[f] }}
	cfg, err := s.Config(sources)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Game != "othello" || cfg.Population != 25 || cfg.Generations != 7 || cfg.Depth != 3 || cfg.Seed != 1 {
		t.Fatalf("game %s, population %d, generations %d, depth %d, seed %d", cfg.Game, cfg.Population, cfg.Generations, cfg.Depth, cfg.Seed)
	}
	flags.BudgetGames, given["budget-games"] = 0, true
	if _, err := s.Config(sources); err == nil || !strings.HasPrefix(err.Error(), "--budget-games 0:") {
		t.Errorf("--budget-games 0: %v", err)
	}
	s = Settings{File: writeFile(t, "colour: red\n"), Changed: func(string) bool { return false }}
	if _, err := s.Config(sources); err == nil || !strings.HasPrefix(err.Error(), s.File+": ") {
		t.Errorf("unknown key: %v", err)
	}
	s.File = filepath.Join(t.TempDir(), "none.yaml")
	if _, err := s.Config(sources); err == nil || !strings.HasPrefix(err.Error(), "--config: ") {
		t.Errorf("no file: %v", err)
	}
}

// TestResumeConfig: a run goes on with its recorded config, or with the
// file's when it is the same or, with force, changes when the run stops;
// never with one that changes its games.
func TestResumeConfig(t *testing.T) {
	cfg := population.Defaults()
	cfg.Game = "tictactoe"
	same, longer, other := writeFile(t, string(cfg.Marshal())), writeFile(t, "game: tictactoe\ngenerations: 20\n"), writeFile(t, "game: nim\n")
	if got, diff, err := ResumeConfig(cfg, "run", "", false, sources); err != nil || diff != nil || got.Game != "tictactoe" {
		t.Errorf("no file: %v %v", diff, err)
	}
	if _, diff, err := ResumeConfig(cfg, "run", same, false, sources); err != nil || diff != nil {
		t.Errorf("the same config: %v %v", diff, err)
	}
	if _, _, err := ResumeConfig(cfg, "run", longer, false, sources); err == nil || !strings.Contains(err.Error(), "generations: 10 -> 20") || !strings.Contains(err.Error(), "--force") {
		t.Errorf("longer without force: %v", err)
	}
	if got, diff, err := ResumeConfig(cfg, "run", longer, true, sources); err != nil || len(diff) != 1 || got.Generations != 20 {
		t.Errorf("longer with force: %v %v", diff, err)
	}
	if _, _, err := ResumeConfig(cfg, "run", other, true, sources); !errors.Is(err, population.ErrNotResumable) || !strings.HasPrefix(err.Error(), "resume: "+other) {
		t.Errorf("another game with force: %v", err)
	}
}

// TestSettingsSizeToBudget: with a budget, the length is derived unless
// the file or a flag gives it, even at its default value; a preset's is
// derived.
func TestSettingsSizeToBudget(t *testing.T) {
	flags := population.Defaults()
	flags.BudgetGames, flags.Generations = 5000, 10
	given := map[string]bool{"budget-games": true}
	s := Settings{Flags: &flags, Changed: func(f string) bool { return given[f] }}
	for _, c := range []struct {
		name   string
		preset string
		file   string
		flag   bool
		want   int
	}{
		{"budget only", "", "", false, population.MaxGenerations},
		{"preset", "othello-report", "", false, population.MaxGenerations},
		{"file at the default", "", "generations: 10\n", false, 10},
		{"flag at the default", "", "", true, 10},
	} {
		s.Preset, s.File, given["generations"] = c.preset, "", c.flag
		if c.file != "" {
			s.File = writeFile(t, c.file)
		}
		cfg, err := s.Config(sources)
		if err != nil || cfg.Generations != c.want {
			t.Errorf("%s: generations %d (%v), want %d", c.name, cfg.Generations, err, c.want)
		}
	}
}
