package population

import (
	"context"
	"slices"
	"strings"
)

// Algos are the tuners: tune compare runs the first five by default, and
// Bayes when asked (it models at most MaxBayesParams parameters).
var Algos = []Algo{Genetic, Knockout, SPSA, CMAES, Texel, Bayes}

// ParseAlgos reads a comma-separated list of tuners, each named once.
func ParseAlgos(list string) ([]Algo, error) {
	var algos []Algo
	for _, a := range strings.Split(list, ",") {
		a := Algo(strings.TrimSpace(a))
		if !slices.Contains(Algos, a) {
			return nil, bad("unknown algo %q (genetic, knockout, spsa, cmaes, texel, bayes)", a)
		}
		if slices.Contains(algos, a) {
			return nil, bad("%q twice", a)
		}
		algos = append(algos, a)
	}
	return algos, nil
}

// CompareConfig is algo's config in a comparison of tuners on one budget:
// base (Defaults with the shared settings: game, evaluator, start, seed,
// depth, openings and budget-games) with algo, no ladder of its own, and
// its length derived from the budget (SizeToBudget, no length given), as
// tune run derives it.
func CompareConfig(base Config, algo Algo) Config {
	cfg := base
	cfg.Algo, cfg.LadderPairs = algo, -1
	return SizeToBudget(cfg, func(string) bool { return false })
}

// Champions picks up to n champions of a run's history as ladder entries,
// evenly spaced, the last always: each labelled "run:g<generation>" and
// its genome id offset by idBase, so that the champions of several runs
// can meet in one ladder (RateChampions). A genome picked twice (one
// that survived as champion) is rated once, as the later pick.
func Champions(hist []Generation, n int, run string, idBase int) []LadderEntry {
	var out []LadderEntry
	size := len(hist)
	for k := 0; k < min(n, size); k++ {
		i := size - 1
		if n > 1 && size > 1 {
			i = (size - 1) * (k + 1) / min(n, size)
		}
		if len(out) > 0 && out[len(out)-1].Generation == hist[i].Index {
			continue
		}
		for _, x := range hist[i].Genomes {
			if x.ID == hist[i].Best {
				id := idBase + x.ID
				out = append(slices.DeleteFunc(out, func(e LadderEntry) bool { return e.Genome == id }),
					LadderEntry{Label: run + ":" + ChampionLabel(hist[i].Index), Genome: id, Generation: hist[i].Index, Spent: hist[i].Spent, Weights: x.Weights})
			}
		}
	}
	return out
}

// RateChampions rates champions (of several runs: Champions) with the
// evaluator's defaults and the tuner's start, when it differs from them,
// in one ladder (RateEntries), pairs colour-swapped pairs per pairing (0:
// AutoLadderPairs for spent games). The champions' entries start at the
// index it returns.
func (t *Tuner) RateChampions(ctx context.Context, champions []LadderEntry, pairs, spent int) (*Ladder, int, error) {
	def := t.ev.Defaults()
	players := []LadderEntry{{Label: "defaults", Genome: DefaultsID, Generation: -1, Weights: def}}
	if t.start != nil && !slices.Equal(t.start, def) {
		players = append(players, LadderEntry{Label: "start", Genome: StartID, Generation: -1, Weights: t.start})
	}
	offset := len(players)
	players = append(players, champions...)
	if pairs <= 0 {
		pairs = AutoLadderPairs(len(players), spent)
	}
	l, err := t.RateEntries(ctx, players, pairs)
	return l, offset, err
}
