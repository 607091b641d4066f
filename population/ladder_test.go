package population

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
)

// TestLadderWorkersDoNotMatter: the ladder at the end of a run is the same
// with 1 and 2 workers, rates the defaults 0 and holds every distinct
// champion.
func TestLadderWorkersDoNotMatter(t *testing.T) {
	cfg := smallGenetic()
	cfg.Game, cfg.Depth, cfg.Generations = "kono", 2, 5
	var ladders [2]*Ladder
	for i, workers := range []int{1, 2} {
		store := NewMemoryStore()
		res, err := newTestTuner(t, cfg, workers, store, nil, nil).Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if res.Ladder == nil || !reflect.DeepEqual(res.Ladder, store.Ladder) {
			t.Fatal("the run's ladder is not in its store")
		}
		ladders[i] = res.Ladder
	}
	if !reflect.DeepEqual(ladders[0], ladders[1]) {
		t.Fatal("the ladders of 1 and 2 workers differ")
	}
	l := ladders[0]
	if e := l.Entries[0]; e.Label != "defaults" || e.Elo != 0 || e.Low != 0 || e.High != 0 {
		t.Fatalf("first entry %+v, want the defaults at 0", e)
	}
	if len(l.Entries) < 3 {
		t.Fatalf("%d entries: want the defaults and at least two champions", len(l.Entries))
	}
	for i, e := range l.Entries[1:] {
		if e.Generation < 0 || e.Spent <= 0 || !(e.Low <= e.Elo && e.Elo <= e.High) {
			t.Errorf("entry %d: %+v", i+1, e)
		}
		if e.Games() != 2*l.Pairs*(len(l.Entries)-1) {
			t.Errorf("entry %s played %d games, want %d", e.Label, e.Games(), 2*l.Pairs*(len(l.Entries)-1))
		}
	}
}

// TestLadderPlayers: repeated champions are rated once, as the last
// generation they were champion of, many are spaced down to
// MaxLadderChampions keeping the first and the last, and the start comes
// second when it differs from the defaults.
func TestLadderPlayers(t *testing.T) {
	g, _ := all.Find("othello")
	ev, _ := games.FindEvaluator(g, "report")
	tu := &Tuner{ev: ev}
	var hist []Generation
	for i := 0; i < 30; i++ {
		w := []float64{float64(i/2) / 10, 1, 1, 1} // each champion twice in a row
		hist = append(hist, Generation{Index: i, Best: 100 + i, Spent: 10 * (i + 1), Genomes: []Genome{{ID: 100 + i, Weights: w}}})
	}
	players := tu.ladderPlayers(hist)
	if len(players) != 1+MaxLadderChampions {
		t.Fatalf("%d players, want the defaults and %d champions", len(players), MaxLadderChampions)
	}
	if players[1].Label != "g2" || players[len(players)-1].Label != "g30" {
		t.Errorf("first and last champions %s, %s; want g2 and g30", players[1].Label, players[len(players)-1].Label)
	}
	for _, p := range players[1:] {
		if p.Generation%2 != 1 || p.Spent != 10*(p.Generation+1) {
			t.Errorf("%s (spent %d) is not the last of the two generations with its weights", p.Label, p.Spent)
		}
	}
	tu.start = []float64{2, 2, 2, 2}
	if players = tu.ladderPlayers(hist[:3]); len(players) != 4 || players[1].Label != "start" || players[1].Genome != StartID {
		t.Fatalf("with a start: %+v", players)
	}
	tu.start = ev.Defaults()
	if players = tu.ladderPlayers(hist[:3]); len(players) != 3 {
		t.Fatalf("a start equal to the defaults is listed once: %d players", len(players))
	}
	tu.start, tu.cfg.Start = []float64{2, 2, 2, 2}, StartRandom
	if players = tu.ladderPlayers(hist[:3]); len(players) != 4 || players[1].Label != "start" || players[1].Genome != RandomStartID {
		t.Fatalf("a random start is rated, with an id that is not the reference's: %+v", players)
	}
	tu.start = hist[0].Genomes[0].Weights
	if players = tu.ladderPlayers(hist[:3]); len(players) != 3 || players[1].Label != "g2" {
		t.Fatalf("a random start that is generations 1 and 2's champion is listed once, as g2: %+v", players)
	}
}

// TestRandomStart: --start random draws one vector from the seed alone,
// in the ranges and on the steps.
func TestRandomStart(t *testing.T) {
	g, _ := all.Find("chess")
	ev, _ := games.FindEvaluator(g, "textbook")
	a, b, c := RandomStart(ev, 5), RandomStart(ev, 5), RandomStart(ev, 6)
	if !reflect.DeepEqual(a, b) || reflect.DeepEqual(a, c) {
		t.Fatalf("seed 5 twice: %v, %v; seed 6: %v", a, b, c)
	}
	if reflect.DeepEqual(a, ev.Defaults()) {
		t.Fatal("the random start is the defaults")
	}
	for i, f := range ev.Features {
		steps := (a[i] - f.Min) / f.Step
		if a[i] < f.Min || a[i] > f.Max || math.Abs(steps-math.Round(steps)) > 1e-6 {
			t.Errorf("%s = %g: not on a step of %g in [%g, %g]", f.Name, a[i], f.Step, f.Min, f.Max)
		}
	}
}

func TestLadderTooShort(t *testing.T) {
	cfg := smallGenetic()
	tu := newTestTuner(t, cfg, 1, NewMemoryStore(), nil, nil)
	if _, err := tu.Ladder(context.Background(), []Generation{{}}, 2); !errors.Is(err, ErrLadderTooShort) {
		t.Fatalf("one generation: %v, want ErrLadderTooShort", err)
	}
}

// TestChooseBest: the ladder decides when there is one, the yardstick
// before it, and the reference is handed out when nothing beats it with
// 95% confidence.
func TestChooseBest(t *testing.T) {
	g, _ := all.Find("othello")
	ev, _ := games.FindEvaluator(g, "report")
	def := ev.Defaults()
	champ := []float64{0.5, 1.5, 0.5, 1}
	hist := []Generation{
		{Index: 0, Best: 1, Genomes: []Genome{{ID: 1, Weights: []float64{1, 1, 1, 2}}}, Yardstick: &Yardstick{Genome: 1, Elo: 80, EloLow: -20, EloHigh: 180}},
		{Index: 1, Best: 7, Genomes: []Genome{{ID: 7, Weights: champ}}, Yardstick: &Yardstick{Genome: 7, Elo: 120, EloLow: 30, EloHigh: 210}},
	}
	ladder := func(bestLow float64, start bool) *Ladder {
		l := &Ladder{Pairs: 10, Best: 1, BestLow: bestLow, BestHigh: bestLow + 200, Entries: []LadderEntry{
			{Label: "defaults", Genome: DefaultsID, Generation: -1, Weights: def},
			{Label: "g2", Genome: 7, Generation: 1, Weights: champ, Elo: bestLow + 100},
		}}
		if start {
			l.Entries = append(l.Entries, LadderEntry{Label: "start", Genome: StartID, Generation: -1, Weights: []float64{2, 2, 2, 2}, Elo: 20})
			l.Reference = 2
		}
		return l
	}
	withStart := Config{StartWeights: map[string]float64{}}
	for _, f := range ev.Features {
		withStart.StartWeights[f.Name] = 2
	}
	randomStart := withStart
	randomStart.Start = StartRandom
	held := func(best string, genome int, ref string, refGenome int) *Verification {
		return &Verification{Best: best, BestGenome: genome, Reference: ref, ReferenceGenome: refGenome, Status: stats.AcceptH1, Elo: 60, Low: 20, High: 100}
	}
	notHeld := held("g2", 7, "defaults", DefaultsID)
	notHeld.Status = stats.AcceptH0
	cases := []struct {
		name      string
		cfg       Config
		hist      []Generation
		ladder    *Ladder
		ver       *Verification
		label     string
		confident bool
		source    string
	}{
		{"nothing measured", Config{}, nil, nil, nil, "defaults", false, "none"},
		{"yardstick above 0", Config{}, hist, nil, nil, "g2", true, "yardstick"},
		{"yardstick not above 0", Config{}, hist[:1], nil, nil, "defaults", false, "yardstick"},
		{"yardstick with a start", withStart, hist, nil, nil, "start", false, "yardstick"},
		{"ladder confident", Config{}, hist, ladder(10, false), nil, "g2", true, "ladder"},
		{"ladder not confident", Config{}, hist, ladder(-10, false), nil, "defaults", false, "ladder"},
		{"ladder against the start", withStart, hist, ladder(-5, true), nil, "start", false, "ladder"},
		{"random start: the defaults are the reference", randomStart, hist, ladder(-10, false), nil, "defaults", false, "ladder"},
		{"random start, ladder confident", randomStart, hist, ladder(10, false), nil, "g2", true, "ladder"},
		{"ladder not confident, verification held", Config{}, hist, ladder(-10, false), held("g2", 7, "defaults", DefaultsID), "g2", true, "verification"},
		{"verification held for another genome", Config{}, hist, ladder(-10, false), held("g2", 8, "defaults", DefaultsID), "defaults", false, "ladder"},
		{"verification against another reference", withStart, hist, ladder(-5, true), held("g2", 7, "defaults", DefaultsID), "start", false, "ladder"},
		{"verification not held", Config{}, hist, ladder(-10, false), notHeld, "defaults", false, "ladder"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ChooseBest(ev, c.cfg, c.hist, c.ladder, c.ver)
			if err != nil {
				t.Fatal(err)
			}
			if got.Label != c.label || got.Confident != c.confident || got.Source != c.source {
				t.Fatalf("got %s (confident %v, by %s), want %s (%v, by %s): %s", got.Label, got.Confident, got.Source, c.label, c.confident, c.source, got.Summary())
			}
			switch got.Label {
			case "defaults":
				if !reflect.DeepEqual(got.Weights, def) {
					t.Errorf("weights %v, want the defaults", got.Weights)
				}
			case "start":
				if !reflect.DeepEqual(got.Weights, []float64{2, 2, 2, 2}) {
					t.Errorf("weights %v, want the start", got.Weights)
				}
			case "g2":
				if !reflect.DeepEqual(got.Weights, champ) {
					t.Errorf("weights %v, want the champion's", got.Weights)
				}
			}
			if !got.Confident && !strings.Contains(got.Summary(), "the "+got.Reference) {
				t.Errorf("summary %q does not name the reference", got.Summary())
			}
		})
	}
}

// TestYardstickCanRise: once a champion beats the defaults every time, a
// better one still rates higher, through its games against it.
func TestYardstickCanRise(t *testing.T) {
	var y yardstickPanel
	a := Genome{ID: 1, Weights: []float64{1}}
	b := Genome{ID: 2, Weights: []float64{2}}
	sweep := stats.WDL{Wins: 20}
	eloA, _, _, err := y.add(a, &Yardstick{WDL: sweep, Previous: NoGenome})
	if err != nil {
		t.Fatal(err)
	}
	eloB, lowB, _, err := y.add(b, &Yardstick{WDL: sweep, Previous: 1, VsPrevious: stats.WDL{Wins: 15, Draws: 2, Losses: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if math.IsInf(eloA, 0) || math.IsInf(eloB, 0) || !(eloB > eloA+100) || lowB <= 0 {
		t.Fatalf("a sweeps the defaults: %+.0f; b sweeps them and beats a 15-2-3: %+.0f (low %+.0f); want b well above a, finite", eloA, eloB, lowB)
	}
	if p, ok := y.previous(); !ok || p.ID != 2 {
		t.Fatalf("previous champion %+v", p)
	}
	// The same weights again under a new id carry on as one player.
	if _, _, _, err := y.add(Genome{ID: 3, Weights: []float64{2}}, &Yardstick{WDL: sweep, Previous: NoGenome}); err != nil || len(y.players) != 3 {
		t.Fatalf("%d players after a repeated champion (%v), want 3", len(y.players), err)
	}
}

// TestBudgets: a games budget ends the run at the first boundary past it,
// whatever the workers; a time budget ends it where it ended the first
// time, also when resumed with a fresh clock.
func TestBudgets(t *testing.T) {
	cfg := smallGenetic()
	cfg.Generations, cfg.LadderPairs = 10, -1
	cfg.BudgetGames = 100
	var stops [2]int
	for i, workers := range []int{1, 2} {
		store := NewMemoryStore()
		res, err := newTestTuner(t, cfg, workers, store, nil, nil).Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		last := store.Generations[len(store.Generations)-1]
		if res.Stop != StopBudgetGames || last.Stop != StopBudgetGames || last.Spent < 100 {
			t.Fatalf("stop %q, last generation %+v", res.Stop, last)
		}
		if prev := store.Generations[len(store.Generations)-2]; prev.Spent >= 100 {
			t.Fatalf("the generation before the stop had spent %d games already", prev.Spent)
		}
		stops[i] = res.Generations
	}
	if stops[0] != stops[1] || stops[0] >= 10 {
		t.Fatalf("stopped after %v generations with 1 and 2 workers", stops)
	}

	cfg.BudgetGames, cfg.BudgetTime = 0, "1h"
	store := NewMemoryStore()
	tu := newTestTuner(t, cfg, 1, store, nil, nil)
	calls := 0
	tu.Elapsed = func() time.Duration {
		calls++
		if calls >= 3 {
			return 2 * time.Hour
		}
		return 0
	}
	res, err := tu.Run(context.Background())
	if err != nil || res.Stop != StopBudgetTime || res.Generations != 3 {
		t.Fatalf("time budget: stopped after %d generations (%q, %v), want 3 (budget-time)", res.Generations, res.Stop, err)
	}
	resumed := newTestTuner(t, cfg, 2, store, nil, nil)
	resumed.Elapsed = func() time.Duration { return 0 }
	if res, err := resumed.Run(context.Background()); err != nil || res.Generations != 3 || res.Stop != StopBudgetTime {
		t.Fatalf("resumed with a fresh clock: %d generations (%q, %v), want the same 3", res.Generations, res.Stop, err)
	}
}

// TestChampionByEvidence: an elite with a long good record is the champion
// over a newcomer that won its few games, and its fitness counts its prior.
func TestChampionByEvidence(t *testing.T) {
	veteran := Genome{ID: 1, WDL: stats.WDL{Wins: 4, Draws: 1, Losses: 1}, Prior: stats.WDL{Wins: 30, Draws: 10, Losses: 8}}
	lucky := Genome{ID: 2, WDL: stats.WDL{Wins: 4}}
	m := &genetic{cfg: GeneticConfig{Fitness: "score"}}
	veteran.Fitness, lucky.Fitness = m.fitness(veteran), m.fitness(lucky)
	if lucky.Fitness <= veteran.Fitness {
		t.Fatalf("fitness: lucky %.3f, veteran %.3f; the lucky one scored more per game", lucky.Fitness, veteran.Fitness)
	}
	if got := bestIndex([]Genome{lucky, veteran}); got != 1 {
		t.Fatalf("champion %d, want the veteran (evidence %.3f against %.3f)", got, veteran.evidence(), lucky.evidence())
	}
	if want := (34 + 11.0/2) / 54; math.Abs(veteran.Fitness-0.01-want) > 1e-12 {
		t.Fatalf("the veteran's fitness %.4f does not count its prior (%.4f)", veteran.Fitness, want+0.01)
	}
}

// TestWiden: the interval of the strongest of k candidates is widened to a
// family-wise 95% (Bonferroni); one candidate keeps its interval.
func TestWiden(t *testing.T) {
	if lo, hi := widen(70, 11, 129, 1); lo != 11 || hi != 129 {
		t.Fatalf("one candidate: [%g, %g]", lo, hi)
	}
	// The chess ladder's strongest of 12: +70 [+11, +129], se 30.1; z for
	// 0.05/12 two-sided is 2.865.
	lo, hi := widen(70, 11, 129, 12)
	if math.Abs(lo-(-16.2)) > 0.5 || math.Abs(hi-156.2) > 0.5 {
		t.Fatalf("12 candidates: [%.1f, %.1f], want about [-16.2, +156.2]", lo, hi)
	}
	// Othello's strongest of 12 at +87 [+41, +132] stays above 0.
	if lo, _ := widen(87, 41, 132, 12); lo <= 0 {
		t.Fatalf("othello: widened low %.1f", lo)
	}
}

func TestReadLabelledPositions(t *testing.T) {
	g, _ := all.Find("chess")
	good := "# texel set\n" +
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 1-0\n" +
		"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - c9 \"1/2-1/2\";\n" +
		"\n8/8/8/4k3/8/8/4K3/4Q3 w - - 0 1 | 0-1\n"
	got, err := ReadLabelledPositions(g, []byte(good))
	if err != nil || len(got) != 3 || got[0].First != 1 || got[1].First != 0.5 || got[2].First != 0 {
		t.Fatalf("%+v, %v", got, err)
	}
	for _, c := range []struct{ data, want string }{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n", "line 1: no result"},
		{"x | 1-0\n", "line 1:"},
		{"# c\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | win\n", `line 2: result "win"`},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1-0;\n", "line 1: c9 opens a quote"},
		{"7k/5QQ1/8/8/8/8/8/K7 b - - 0 1 | 1-0\n", "line 1: the game is over"},
		{"# only a comment\n", "no position"},
	} {
		if _, err := ReadLabelledPositions(g, []byte(c.data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.data, err, c.want)
		}
	}
}

// TestTexelGivenData: positions and games given to a Texel run join its
// fit from the first round (more positions than its own games give).
func TestTexelGivenData(t *testing.T) {
	cfg := smallGenetic()
	cfg.Algo, cfg.TexelRounds, cfg.TexelGames, cfg.YardstickPairs, cfg.LadderPairs = Texel, 1, 4, 0, -1
	own := NewMemoryStore()
	if _, err := newTestTuner(t, cfg, 1, own, nil, nil).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	tu := newTestTuner(t, cfg, 1, NewMemoryStore(), nil, nil)
	tu.TexelData.Positions = []LabelledPosition{{Position: "x-o------", First: 1}, {Position: "xo-------", First: 0.5}}
	if _, err := tu.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	tu = newTestTuner(t, cfg, 1, NewMemoryStore(), nil, nil)
	tu.TexelData.Positions = []LabelledPosition{{Position: "not a board", First: 1}}
	if _, err := tu.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "given position 1") {
		t.Fatalf("a bad given position: %v", err)
	}
}

// TestRateLadderRandomStart: a random start on the ladder is rated against
// the defaults, which stay the reference, and it counts as a candidate for
// the family-wise interval of the best, as a champion would.
func TestRateLadderRandomStart(t *testing.T) {
	results := func() []stats.PairResult {
		return []stats.PairResult{
			{A: 0, B: 1, WDL: stats.WDL{Wins: 14, Draws: 4, Losses: 22}},
			{A: 0, B: 2, WDL: stats.WDL{Wins: 10, Draws: 6, Losses: 24}},
			{A: 1, B: 2, WDL: stats.WDL{Wins: 15, Draws: 5, Losses: 20}},
		}
	}
	players := func(second LadderEntry) []LadderEntry {
		return []LadderEntry{{Label: "defaults", Genome: DefaultsID, Generation: -1}, second, {Label: "g2", Genome: 9, Generation: 1}}
	}
	withStart, err := rateLadder(players(LadderEntry{Label: "start", Genome: RandomStartID, Generation: -1}), results())
	if err != nil {
		t.Fatal(err)
	}
	withChampion, err := rateLadder(players(LadderEntry{Label: "g1", Genome: 5, Generation: 0}), results())
	if err != nil {
		t.Fatal(err)
	}
	if withStart.Reference != 0 || withStart.Best != 2 {
		t.Fatalf("reference %d, best %d; want the defaults (0) and g1 (2)", withStart.Reference, withStart.Best)
	}
	if withStart.BestLow != withChampion.BestLow || withStart.BestHigh != withChampion.BestHigh {
		t.Fatalf("best's interval [%g, %g] with a random start, [%g, %g] with a champion in its place: want the same 2 candidates",
			withStart.BestLow, withStart.BestHigh, withChampion.BestLow, withChampion.BestHigh)
	}
}

// script is a Method whose generation gen names champions[gen] its champion,
// playing no games: a run whose champions are known in advance.
type script struct{ champions []Genome }

func (m script) Generation(ctx context.Context, gen int) (Generation, Genome, error) {
	x := m.champions[gen]
	return Generation{Index: gen, Genomes: []Genome{x}, Best: x.ID}, x, nil
}

// TestLadderRatesTheEndPoint: a run whose last champions repeat weights
// that were champion long before (the othello-report preset's g24, g27,
// g29..g34, here first seen at g3) rates the weights it ended on, once,
// as its last champion, though the ladder thins 27 champions to
// MaxLadderChampions.
func TestLadderRatesTheEndPoint(t *testing.T) {
	const last, survivor = 34, 7
	end := []float64{0.5, -1, 2, -2}
	champions := make([]Genome, last+1)
	for i := range champions {
		champions[i] = Genome{ID: 100 + i, Weights: []float64{1 + 0.1*float64(i+1), -1, 2, -2}}
		if i == 3 || i == 24 || i == 27 || i >= 29 {
			champions[i] = Genome{ID: survivor, Weights: end}
		}
	}
	d, _ := TunerOf(Genetic)
	saved := d.New
	t.Cleanup(func() { d.New = saved })
	d.New = func(*Tuner) (Method, error) { return script{champions}, nil }
	cfg := smallGenetic()
	cfg.Generations, cfg.YardstickPairs, cfg.LadderPairs = last+1, 0, 1
	res, err := newTestTuner(t, cfg, 2, NewMemoryStore(), nil, nil).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	l := res.Ladder
	if l == nil || len(l.Entries) != 1+MaxLadderChampions {
		t.Fatalf("ladder %+v: want the defaults and %d champions", l, MaxLadderChampions)
	}
	n := 0
	for _, e := range l.Entries {
		if reflect.DeepEqual(e.Weights, end) {
			n++
		}
	}
	e := l.Entries[len(l.Entries)-1]
	if n != 1 || e.Label != "g35" || e.Generation != last || e.Genome != survivor || !reflect.DeepEqual(e.Weights, end) {
		t.Fatalf("the weights the run ended on are rated %d times; the last entry is %s (genome %d, %v), want g35 (genome %d, %v)",
			n, e.Label, e.Genome, e.Weights, survivor, end)
	}
}

// TestChampionsOnce: tune compare's picks rate a genome that stayed
// champion once, as its last pick, and keep the run's last champion.
func TestChampionsOnce(t *testing.T) {
	var hist []Generation
	for i, id := range []int{1, 2, 2, 2} {
		hist = append(hist, Generation{Index: i, Best: id, Spent: 10 * (i + 1), Genomes: []Genome{{ID: id, Weights: []float64{float64(id)}}}})
	}
	var got []string
	for _, e := range Champions(hist, 4, "genetic", 1000) {
		got = append(got, fmt.Sprintf("%s/%d", e.Label, e.Genome))
	}
	if want := []string{"genetic:g1/1001", "genetic:g4/1002"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("champions %v, want %v", got, want)
	}
}

// TestSummaryOfTheReference: a best that is the reference, rated strongest
// itself, is not called its own strongest rival.
func TestSummaryOfTheReference(t *testing.T) {
	c := Choice{Label: "defaults", Reference: "defaults", Candidate: "defaults", Source: "ladder"}
	if got, want := c.Summary(), "the defaults: no genome is rated above them (by the ladder)"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	c.Candidate, c.Elo, c.Low, c.High = "g3", 40, -10, 90
	if got := c.Summary(); !strings.Contains(got, "strongest: g3, +40 Elo [-10, +90]") {
		t.Errorf("summary %q does not name g3 with its Elo", got)
	}
}

// TestExpectedGenerations: a run without a budget expects its planned
// length; a budgeted one the generations done scaled to its budget at its
// pace, the nearer budget binding, between done and the planned length.
func TestExpectedGenerations(t *testing.T) {
	c := Defaults()
	c.Generations = 1000
	if got := c.ExpectedGenerations(3, 300, 60); got != 1000 {
		t.Errorf("no budget: %d, want the planned 1000", got)
	}
	c.BudgetGames = 2000
	if got := c.ExpectedGenerations(3, 300, 60); got != 20 {
		t.Errorf("3 generations in 300 of 2000 games: %d, want 20", got)
	}
	if got := c.ExpectedGenerations(0, 0, 0); got != 1000 {
		t.Errorf("before any generation: %d, want the planned 1000", got)
	}
	c.BudgetTime = "2m"
	if got := c.ExpectedGenerations(3, 300, 60); got != 6 {
		t.Errorf("3 generations in 60 s of 2 minutes: %d, want 6 (the time binds)", got)
	}
	c.BudgetGames, c.BudgetTime = 100, ""
	if got := c.ExpectedGenerations(3, 300, 60); got != 3 {
		t.Errorf("past the budget: %d, want the 3 done", got)
	}
}

// TestLadderOpeningsForEveryPair: a ladder of 200 pairs a pairing gets an
// opening for each pair, the first batch first (a ladder of up to 64
// pairs plays the openings it always did), none of them the run's own.
func TestLadderOpeningsForEveryPair(t *testing.T) {
	cfg := Defaults()
	cfg.Game, cfg.Evaluator = "othello", "full"
	ctx := context.Background()
	own, err := tournament.RandomOpenings(ctx, mustFind(t, "othello"), cfg.Openings, cfg.Seed)
	if err != nil {
		t.Fatal(err)
	}
	tu := newTestTuner(t, cfg, 1, NewMemoryStore(), nil, own)
	first, err := tu.ladderOpenings(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	many, err := tu.ladderOpenings(ctx, 200)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, op := range many {
		seen[op] = true
	}
	if len(many) < 200 || len(seen) != len(many) || !slices.Equal(many[:len(first)], first) {
		t.Fatalf("%d openings (%d distinct) for 200 pairs, the first batch first: %v", len(many), len(seen), slices.Equal(many[:len(first)], first))
	}
	if len(tu.openings) == 0 {
		t.Fatal("the run has no openings of its own to keep the ladder clear of")
	}
	for _, op := range tu.openings {
		if seen[op] {
			t.Fatalf("the ladder opens as the run does: %s", op)
		}
	}
}
