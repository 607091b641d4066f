package results

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/population"
)

// View is a run as every reader shows it (tune show, runs, export and
// ladder, the report and the dashboard): its record, its config, the game
// and the evaluator it tunes, its closed generations, its ladder and its
// best genome, read and checked once. A View is a snapshot; it does not
// follow the run.
type View struct {
	Name        string // the run directory's base name
	Info        Info
	Config      population.Config
	Game        games.Game
	Evaluator   *games.Evaluator
	Generations []population.Generation
	Ladder      *population.Ladder // nil when the run has none (yet)
	// Verification is the run's best verified at a deeper search; nil
	// when the run has none. NewView leaves it nil: ReadView reads it.
	Verification *population.Verification
	// Best is the run's best genome as every command names it
	// (population.ChooseBest): the reference (the start or the defaults)
	// until a generation has closed.
	Best population.Choice
}

// NewView makes the view of recorded data: it finds the game the config
// names (in the registry, games/all) and the evaluator it tunes, checks
// that every genome, mean and spread of hist and every ladder entry holds
// one weight per feature (CheckWeights; an error wrapping ErrDamaged when
// one does not) and chooses the best. hist may hold only some genomes of
// each generation, as Champions reads them: the best is the same.
func NewView(name string, cfg population.Config, info Info, hist []population.Generation, ladder *population.Ladder) (*View, error) {
	g, err := all.Find(cfg.Game)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	ev, err := cfg.TunedEvaluator(g)
	if err != nil {
		return nil, err
	}
	if err := CheckWeights(hist, len(ev.Features)); err != nil {
		return nil, err
	}
	v := &View{Name: name, Info: info, Config: cfg, Game: g, Evaluator: ev, Generations: hist}
	if err := v.SetLadder(ladder); err != nil {
		return nil, err
	}
	return v, nil
}

// SetLadder gives the view the run's ladder (nil for none), checking its
// weights as NewView does, and chooses the best again.
func (v *View) SetLadder(l *population.Ladder) error {
	if l != nil {
		for _, e := range l.Entries {
			if len(e.Weights) != len(v.Evaluator.Features) {
				return fmt.Errorf("%w: ladder entry %s has %d weights for %d features", ErrDamaged, e.Label, len(e.Weights), len(v.Evaluator.Features))
			}
		}
	}
	best, err := population.ChooseBest(v.Evaluator, v.Config, v.Generations, l, v.Verification)
	if err != nil {
		return err
	}
	v.Ladder, v.Best = l, best
	return nil
}

// ReadView reads the view of an open run: its record, its config, every
// genome of every closed generation (Generations), its ladder and its
// verification.
func ReadView(r *Run) (*View, error) {
	cfg, err := r.ReadConfig()
	if err != nil {
		return nil, err
	}
	info, infoErr := r.Info()
	hist, histErr := r.Generations()
	l, ladderErr := r.Ladder()
	ver, verErr := r.Verification()
	if err := errors.Join(infoErr, histErr, ladderErr, verErr); err != nil {
		return nil, err
	}
	v, err := NewView(filepath.Base(r.dir), cfg, info, hist, l)
	if err != nil {
		return nil, err
	}
	if ver != nil {
		v.Verification = ver
		return v, v.SetLadder(l) // the verification may confirm the ladder's strongest
	}
	return v, nil
}

// ReadConfig parses the config the run recorded (population.ParseConfig);
// its error names the run.
func (r *Run) ReadConfig() (population.Config, error) {
	cfg, err := population.ParseConfig(r.Config())
	if err != nil {
		return population.Config{}, fmt.Errorf("results: the config recorded in %s: %w", r.dir, err)
	}
	return cfg, nil
}

// OpenView opens the run in dir for reading (OpenReadOnly, which checks the
// whole database), reads its view (ReadView) and closes it.
func OpenView(dir string) (*View, error) {
	r, err := OpenReadOnly(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return ReadView(r)
}

// Brackets reports whether the run's tuner plays its generations as
// knockout brackets (its Descriptor's Report.Bracket), the last of which
// the report draws.
func (v *View) Brackets() bool {
	d, ok := population.TunerOf(v.Config.Algo)
	return ok && d.Report.Bracket
}
