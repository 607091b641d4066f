package results

import (
	"fmt"
	"math"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/tournament/stats"
)

// The JSON shapes of a run, its ladder and its best, one for every reader:
// tune show, runs and ladder print them with --json, and the dashboard's
// API serves them.

// RunJSON is one run with its best, its ladder and its yardstick history:
// what tune show --json prints.
type RunJSON struct {
	Info
	Progress string `json:"progress"` // View.Progress
	// BudgetNote says when the tuner's length ends the run before its
	// budget (population.BudgetNote); omitted when it does not.
	BudgetNote string       `json:"budget_note,omitempty"`
	Evaluator  string       `json:"evaluator"`
	Weights    []WeightJSON `json:"best_weights,omitempty"`
	// BestGenome is the best's genome id (population.DefaultsID or StartID
	// for the reference), -1 until a generation has closed.
	BestGenome int         `json:"best_genome"`
	Best       *BestJSON   `json:"best,omitempty"`
	Ladder     *LadderJSON `json:"ladder,omitempty"`
	// Verification is the best verified at a deeper search; omitted when
	// the run has none.
	Verification *VerificationJSON `json:"verification,omitempty"`
	Spent        int               `json:"games_spent"`
	// The cost of the gain: games and seconds per Elo of the best over the
	// reference; null when tuning has not shown a gain.
	GamesPerElo   stats.Float     `json:"games_per_elo"`
	SecondsPerElo stats.Float     `json:"seconds_per_elo"`
	Yardstick     []YardstickJSON `json:"yardstick"`
	// Opponents are the players the run tunes against besides self-play
	// (population.OpponentConfig), in order; none without.
	Opponents []OpponentSpecJSON `json:"opponents,omitempty"`
}

// OpponentSpecJSON is one opponent of a run: its name in displays and
// its spec.
type OpponentSpecJSON struct {
	Name string `json:"name"`
	Spec string `json:"spec"`
}

// RunLineJSON is one run of a list (tune runs --json): its record, its
// progress and its best.
type RunLineJSON struct {
	Info
	Progress string `json:"progress"`          // View.Progress
	Damaged  string `json:"damaged,omitempty"` // why the run cannot be read
	// Best is the run's best genome as show and export name it; null
	// until a generation is finished. BestElo and its bounds are its
	// rating over the reference (null when not measured).
	Best    *BestJSON   `json:"best"`
	BestElo stats.Float `json:"best_elo"`
	EloLow  stats.Float `json:"best_elo_low"`
	EloHigh stats.Float `json:"best_elo_high"`
	// Compare is set on a comparison of tuners' line (tune compare), whose
	// Algo is "compare", Progress and counts its tuners' summed, and Best
	// the best tuner's last champion on the shared ladder
	// (CompareView.Line).
	Compare *CompareLineJSON `json:"compare,omitempty"`
}

// ListLine reads the line of the run in a list whose record is in
// (List): its view (OpenView), or with Damaged set, why it cannot be read.
func ListLine(in Info) RunLineJSON {
	nan := stats.Float(math.NaN())
	l := RunLineJSON{Info: in, Progress: fmt.Sprint(in.Generations), BestElo: nan, EloLow: nan, EloHigh: nan}
	v, err := OpenView(in.Dir)
	if err != nil {
		l.Damaged = err.Error()
		return l
	}
	return viewLine(v)
}

// viewLine is the line of the run of v in a list.
func viewLine(v *View) RunLineJSON {
	nan := stats.Float(math.NaN())
	l := RunLineJSON{Info: v.Info, Progress: v.Progress(), BestElo: nan, EloLow: nan, EloHigh: nan}
	if b := v.BestJSON(); b != nil {
		l.Best, l.BestElo, l.EloLow, l.EloHigh = b, b.Elo, b.Low, b.High
	}
	return l
}

// BestJSON is a run's best genome (a population.Choice) with its weights by
// feature name.
type BestJSON struct {
	Label      string      `json:"label"`      // "g12", "start" or "defaults"
	Genome     int         `json:"genome"`     // its id
	Generation int         `json:"generation"` // counted from 1, as the label's; 0 for the start and the defaults
	Reference  string      `json:"reference"`  // what tuning had to beat: "start" or "defaults"
	Source     string      `json:"source"`     // "ladder", "yardstick" or "none"
	Candidate  string      `json:"candidate,omitempty"`
	Elo        stats.Float `json:"elo_over_reference"`
	Low        stats.Float `json:"elo_over_reference_low"`
	High       stats.Float `json:"elo_over_reference_high"`
	// Confident: the candidate beats the reference with 95% confidence,
	// and is the best; else the best is the reference.
	Confident bool   `json:"confident"`
	Summary   string `json:"summary"`
	// Verified is the verdict of this best's verification at a deeper
	// search (population.VerdictHeld, VerdictNotHeld, VerdictInconclusive);
	// omitted when it was not verified.
	Verified string             `json:"verified,omitempty"`
	Weights  map[string]float64 `json:"weights"`
}

// LadderJSON is a run's ladder (population.Ladder): its champions, start
// and defaults rated in one pool, the defaults = 0.
type LadderJSON struct {
	Pairs         int               `json:"pairs"` // per pairing
	DrawElo       float64           `json:"draw_elo"`
	Reference     string            `json:"reference"` // the entry tuning had to beat
	Strongest     string            `json:"strongest"`
	StrongestLow  stats.Float       `json:"strongest_over_reference_low"`
	StrongestHigh stats.Float       `json:"strongest_over_reference_high"`
	Entries       []LadderEntryJSON `json:"entries"`
}

// LadderEntryJSON is one player of a ladder, its weights by feature name.
// Generation counts from 1, as the label "g12" does; 0 for the start and
// the defaults.
type LadderEntryJSON struct {
	Label      string `json:"label"`
	Genome     int    `json:"genome"`
	Generation int    `json:"generation"`
	Spent      int    `json:"games_spent"`
	stats.WDL
	Elo     stats.Float        `json:"elo"`
	Low     stats.Float        `json:"elo_low"`
	High    stats.Float        `json:"elo_high"`
	Weights map[string]float64 `json:"weights"`
}

// YardstickJSON is one yardstick match: a generation's champion against
// the defaults and against the previous champion. Generation counts from 1.
type YardstickJSON struct {
	Generation int `json:"generation"`
	Genome     int `json:"genome"`
	stats.WDL
	Score      float64     `json:"score"`
	Elo        stats.Float `json:"elo"`
	Low        stats.Float `json:"elo_low"`
	High       stats.Float `json:"elo_high"`
	Previous   int         `json:"previous_champion"` // population.NoGenome for none
	PrevWins   int         `json:"previous_wins"`
	PrevDraws  int         `json:"previous_draws"`
	PrevLosses int         `json:"previous_losses"`
	// Opponents are the champion's games against each of the run's
	// opponents, in the config's order; none without.
	Opponents []OpponentJSON `json:"opponents,omitempty"`
}

// OpponentJSON is a champion's yardstick games against one opponent.
type OpponentJSON struct {
	Name string `json:"name"` // as population.Config.OpponentNames names it: "o1 gtp-rhino"
	stats.WDL
	Score float64 `json:"score"` // the champion's points per game
}

// WeightJSON is one feature's best weight with its default, range and
// meaning.
type WeightJSON struct {
	Name    string  `json:"name"`
	Value   float64 `json:"value"`
	Default float64 `json:"default"`
	Min     float64 `json:"min"`
	Max     float64 `json:"max"`
	Doc     string  `json:"doc"`
}

// Progress is the run's games against the games it plays in all, for
// every tuner alike: its games budget, or the games its planned length
// and ladder are expected to take (population's ExpectedGames: with a time
// budget alone, at the pace so far), a finished run's own games; a time
// budget is named too.
func (v *View) Progress() string {
	c, in := v.Config, v.Info
	planned := c.ExpectedGames(v.Evaluator, in.Games, in.Seconds)
	switch {
	case c.BudgetGames > 0:
		planned = c.BudgetGames
	case in.Status == StatusDone:
		planned = in.Games
	}
	s := fmt.Sprintf("%d/%d games", in.Games, planned)
	if c.BudgetTime != "" {
		s += ", budget " + c.BudgetTime
	}
	return s
}

// JSON returns the run's RunJSON.
func (v *View) JSON() RunJSON {
	nan := stats.Float(math.NaN())
	j := RunJSON{Info: v.Info, Progress: v.Progress(), BudgetNote: population.BudgetNote(v.Config, v.Evaluator), Evaluator: v.Evaluator.Name, BestGenome: -1,
		GamesPerElo: nan, SecondsPerElo: nan, Ladder: v.LadderJSON(), Verification: v.VerificationJSON(), Yardstick: v.YardstickJSON()}
	for i, name := range v.Config.OpponentNames() {
		j.Opponents = append(j.Opponents, OpponentSpecJSON{name, v.Config.Opponents[i]})
	}
	if n := len(v.Generations); n > 0 {
		j.Weights, j.Best, j.BestGenome = v.WeightsJSON(), v.BestJSON(), v.Best.Genome
		j.Spent = v.Generations[n-1].Spent
		if c := v.Best; c.Confident && c.Elo > 0 {
			j.GamesPerElo, j.SecondsPerElo = stats.Float(float64(j.Spent)/c.Elo), stats.Float(v.Info.Seconds/c.Elo)
		}
	}
	return j
}

// BestJSON returns the run's best; nil until a generation has closed.
func (v *View) BestJSON() *BestJSON {
	if len(v.Generations) == 0 {
		return nil
	}
	b := choiceJSON(v.Best, v.Evaluator.Features)
	b.Verified = v.verifiedBest()
	return b
}

// choiceJSON is the best c, its weights named by the features fs.
func choiceJSON(c population.Choice, fs []games.Feature) *BestJSON {
	return &BestJSON{c.Label, c.Genome, c.Generation + 1, c.Reference, c.Source, c.Candidate,
		stats.Float(c.Elo), stats.Float(c.Low), stats.Float(c.High), c.Confident, c.Summary(), "", byName(fs, c.Weights)}
}

// WeightsJSON returns the best's weights with their features' defaults and
// ranges, in the evaluator's order; nil until a generation has closed.
func (v *View) WeightsJSON() []WeightJSON {
	if len(v.Generations) == 0 {
		return nil
	}
	out := make([]WeightJSON, len(v.Evaluator.Features))
	for i, f := range v.Evaluator.Features {
		out[i] = WeightJSON{f.Name, v.Best.Weights[i], f.Default, f.Min, f.Max, f.Doc}
	}
	return out
}

// LadderJSON returns the run's ladder; nil when it has none.
func (v *View) LadderJSON() *LadderJSON {
	l := v.Ladder
	if l == nil {
		return nil
	}
	j := &LadderJSON{Pairs: l.Pairs, DrawElo: l.DrawElo, Reference: l.Entries[l.Reference].Label, Strongest: l.Entries[l.Best].Label,
		StrongestLow: stats.Float(l.BestLow), StrongestHigh: stats.Float(l.BestHigh)}
	for _, e := range l.Entries {
		j.Entries = append(j.Entries, LadderEntryJSON{e.Label, e.Genome, e.Generation + 1, e.Spent, e.WDL,
			stats.Float(e.Elo), stats.Float(e.Low), stats.Float(e.High), byName(v.Evaluator.Features, e.Weights)})
	}
	return j
}

// YardstickJSON returns the yardstick match of every generation that
// played one, in order; nil when none did.
func (v *View) YardstickJSON() []YardstickJSON {
	var out []YardstickJSON
	names := v.Config.OpponentNames()
	for _, g := range v.Generations {
		if y := g.Yardstick; y != nil {
			j := YardstickJSON{g.Index + 1, y.Genome, y.WDL, y.Score, stats.Float(y.Elo), stats.Float(y.EloLow), stats.Float(y.EloHigh),
				y.Previous, y.VsPrevious.Wins, y.VsPrevious.Draws, y.VsPrevious.Losses, nil}
			for o, r := range y.VsOpponents {
				name := fmt.Sprintf("o%d", o+1)
				if o < len(names) {
					name = names[o]
				}
				j.Opponents = append(j.Opponents, OpponentJSON{name, r, r.Score()})
			}
			out = append(out, j)
		}
	}
	return out
}

// byName maps each feature's name to its weight.
func byName(fs []games.Feature, w []float64) map[string]float64 {
	m := make(map[string]float64, len(fs))
	for i, f := range fs {
		m[f.Name] = w[i]
	}
	return m
}
