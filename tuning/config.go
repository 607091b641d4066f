package tuning

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gametune/gametune/population"
)

// Settings are where the config of a new run comes from (tune run), in
// order: population.Defaults, the preset named Preset (none: ""), the YAML
// keys of the file named File (--config; none: ""), then the value in
// Flags of each key (population.Keys) whose flag Changed reports given;
// last, the tuner's length is derived from the budgets unless the file or
// a flag gives it (population.SizeToBudget).
type Settings struct {
	Preset  string
	File    string
	Flags   *population.Config
	Changed func(flag string) bool
}

// Config is the config of s, its file read by src; population.Resolve
// validates it. An error says which setting is wrong: the preset, the
// file or a key of it (naming the file), or --budget-games given as no
// budget.
func (s Settings) Config(src population.Sources) (population.Config, error) {
	c, given := population.Defaults(), map[string]bool{}
	if s.Preset != "" {
		if err := population.ApplyPreset(&c, s.Preset); err != nil {
			return c, err
		}
	}
	if s.File != "" {
		data, err := src.ReadFile(s.File)
		if err != nil {
			return c, fmt.Errorf("--config: %w", err)
		}
		if err := population.MergeConfig(&c, data); err != nil {
			return c, fmt.Errorf("%s: %w", s.File, err)
		}
		for _, k := range population.ConfigKeys(data) {
			given[k] = true
		}
	}
	for _, k := range population.Keys {
		if s.Changed(k.FlagName()) {
			c.CopyKey(k.Name, s.Flags)
			given[k.Name] = true
		}
	}
	if s.Changed("budget-games") && c.BudgetGames <= 0 {
		return c, fmt.Errorf("--budget-games %d: want a positive number of games (leave it out for no budget)", c.BudgetGames)
	}
	return population.SizeToBudget(c, func(key string) bool { return given[key] }), nil
}

// ResumeConfig is the config to go on with the run in dir, recorded with
// cfg (tune resume): cfg itself, unless the file named file (--config;
// none: "", read by src) holds another; that one only with force, and
// only when it changes no more than population.CheckResume allows. diff
// says how the config returned differs from cfg (population.Config.Diff).
// Every error is the user's: it names the file and what is wrong.
func ResumeConfig(cfg population.Config, dir, file string, force bool, src population.Sources) (want population.Config, diff []string, err error) {
	if file == "" {
		return cfg, nil, nil
	}
	data, err := src.ReadFile(file)
	if err != nil {
		return cfg, nil, fmt.Errorf("--config: %w", err)
	}
	want, diff, err = cfg.ResumeWith(data)
	if errors.Is(err, population.ErrNotResumable) {
		return cfg, nil, fmt.Errorf("resume: %s: %w", file, err)
	}
	if err != nil {
		return cfg, nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(diff) == 0 {
		return cfg, nil, nil
	}
	if !force {
		return cfg, nil, fmt.Errorf("resume: %s differs from the config recorded in %s (%s); resuming with it would not give the run's result: use --force to go on anyway", file, dir, strings.Join(diff, "; "))
	}
	return want, diff, nil
}
