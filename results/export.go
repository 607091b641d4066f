package results

import (
	"strings"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/weights"
)

// Export writes the champion of generation gen of history
// (population.Champion; -1: the last generation's) in format (the formats
// of package weights), or for csv the whole history. The output depends
// on the run's results alone (no timings), so two runs of one seed export
// identical bytes.
func Export(format string, g games.Game, ev *games.Evaluator, history []population.Generation, gen int,
	source map[string]any) ([]byte, error) {
	if format == "csv" {
		return weights.CSV(ev, historyRows(history)), nil
	}
	champion, index, err := population.Champion(history, gen)
	if err != nil {
		return nil, err
	}
	c := population.Choice{Label: population.ChampionLabel(index), Genome: champion.ID, Generation: index, Weights: champion.Weights}
	return exportChoice(format, g, ev, c, source)
}

// Export writes the run's best genome (Best) in format, or with generation
// >= 0 the champion of that generation, or for csv the whole history
// (the package's Export). source goes into a json export (where the weights
// come from: the run, for instance); the run's seed and algorithm are added
// to it, and for the best its summary. A run that tunes an engine's own
// options exports uci as that engine's setoption lines, in its units.
func (v *View) Export(format string, generation int, source map[string]any) ([]byte, error) {
	if source == nil {
		source = map[string]any{}
	}
	source["seed"], source["algo"] = v.Config.Seed, v.Config.Algo
	if generation >= 0 || format == "csv" {
		return Export(format, v.Game, v.Evaluator, v.Generations, generation, source)
	}
	source["best"] = v.Best.Summary()
	if v.Config.TuneEngine != "" && format == "uci" {
		return []byte(strings.Join(population.SetOptionLines(v.Evaluator, v.Best.Weights), "\n") + "\n"), nil
	}
	return exportChoice(format, v.Game, v.Evaluator, v.Best, source)
}

// exportChoice writes a chosen genome's weights in format (not csv),
// adding its generation to source.
func exportChoice(format string, g games.Game, ev *games.Evaluator, c population.Choice, source map[string]any) ([]byte, error) {
	if source == nil {
		source = map[string]any{}
	}
	if c.Generation >= 0 {
		source["generation"] = c.Generation
	}
	return weights.Encode(format, weights.Set{Game: g, Evaluator: ev, Weights: c.Weights, Label: c.Label, Source: source}, weights.Options{})
}

// historyRows is history as the rows of the csv format.
func historyRows(history []population.Generation) []weights.Row {
	var rows []weights.Row
	for _, g := range history {
		for _, x := range g.Genomes {
			rows = append(rows, weights.Row{Generation: g.Index, Genome: x.ID, Parents: x.Parents, Fitness: x.Fitness,
				Wins: x.Wins, Draws: x.Draws, Losses: x.Losses, Best: x.ID == g.Best, Weights: x.Weights})
		}
	}
	return rows
}
