package population

import (
	"context"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
)

// TestVerificationVerdict: the verdict logic by hand. Four pairs scoring
// 2, 1.5, 1 and 1 points of 2 (pair scores 1, 0.75, 0.5, 0.5): pentanomial
// [0 0 2 1 1], 4-3-1 in games, mean 0.6875, a pair's variance 0.04296875,
// so Elo -400 log10(1/0.6875 - 1) = +136.97 with the 95% interval
// Elo(0.6875 -+ 1.96 sqrt(0.04296875/4)) = [-10.87, +364.34]; no bound of
// ln(0.05/0.95) = -2.944 and +2.944 is crossed, so with a cap of 4 pairs
// the verdict is inconclusive. Pairs won twice cross the upper bound at
// the first pair whose LLR reaches it, and pairs after that are not
// counted, however they went; drawn pairs cross the lower one.
func TestVerificationVerdict(t *testing.T) {
	test := stats.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	if lo, hi := test.Bounds(); math.Abs(lo+2.9444389791664403) > 1e-12 || math.Abs(hi-2.9444389791664403) > 1e-12 {
		t.Fatalf("bounds %g, %g", lo, hi)
	}
	v := Verification{Best: "g3", Reference: "start", Depth: 3, SPRT: test, MaxPairs: 4}
	for _, p := range [][2]float64{{1, 1}, {1, 0.5}, {0.5, 0.5}, {1, 0}} {
		v.AddPair(p[0], p[1])
	}
	if v.Pentanomial != (stats.Pentanomial{0, 0, 2, 1, 1}) || v.WDL != (stats.WDL{Wins: 4, Draws: 3, Losses: 1}) || v.Pairs != 4 {
		t.Fatalf("counts %v %+v %d pairs", v.Pentanomial, v.WDL, v.Pairs)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"elo", v.Elo, 136.96907232888248}, {"low", v.Low, -10.871008672130644}, {"high", v.High, 364.33664953158944}} {
		if math.Abs(c.got-c.want) > 1e-9 {
			t.Errorf("%s %.12g, want %.12g", c.name, c.got, c.want)
		}
	}
	if v.Status != stats.Continue || v.Verdict() != VerdictInconclusive || math.Abs(v.LLR) >= 2.944 {
		t.Fatalf("status %v, LLR %g", v.Status, v.LLR)
	}
	if s := v.Summary(); !strings.Contains(s, "g3 against the start at depth 3: inconclusive (no bound crossed in 4 pairs), +137 Elo [-11, +364] over 4 pairs") {
		t.Errorf("summary %q", s)
	}

	for _, c := range []struct {
		cycle   [][2]float64 // the pairs, again and again
		verdict string
		status  stats.Status
	}{
		{[][2]float64{{1, 0.5}, {0.5, 0.5}, {1, 1}}, VerdictHeld, stats.AcceptH1},
		{[][2]float64{{0, 0.5}, {0.5, 0.5}}, VerdictNotHeld, stats.AcceptH0},
	} {
		var p stats.Pentanomial
		decided := 0
		for i := 0; decided == 0 && i < 1000; i++ {
			pair := c.cycle[i%len(c.cycle)]
			p.AddPair(pair[0], pair[1])
			if test.Decide(test.LLRPairs(p)) != stats.Continue {
				decided = i + 1
			}
		}
		v := Verification{SPRT: test, MaxPairs: 1000}
		for i := range decided + 20 {
			v.AddPair(c.cycle[i%len(c.cycle)][0], c.cycle[i%len(c.cycle)][1])
		}
		for range 50 { // the other way, after the decision: not counted
			v.AddPair(1-c.cycle[0][0], 1-c.cycle[0][1])
		}
		if decided == 0 || v.Pairs != decided || v.Status != c.status || v.Verdict() != c.verdict || v.Pentanomial != p {
			t.Errorf("%v: %d pairs, %s (%s); the test decides at pair %d", c.cycle, v.Pairs, v.Verdict(), v.Status, decided)
		}
		if !strings.Contains(v.Summary(), ": "+c.verdict+" ("+c.status.String()+")") {
			t.Errorf("summary %q", v.Summary())
		}
	}
}

// TestVerifyConfig: verify is auto by default, off for a config recorded
// before verification (no verify key), kept off when such a run resumes
// with a config that does not name it; its values, bounds and cap are
// checked with errors that say what is accepted.
func TestVerifyConfig(t *testing.T) {
	if d := Defaults(); d.Verify != VerifyAuto || d.VerifyBounds != DefaultVerifyBounds || d.VerifyPairs != 0 {
		t.Fatalf("defaults %q %q %d", d.Verify, d.VerifyBounds, d.VerifyPairs)
	}
	old, err := ParseConfig([]byte("game: othello\nalgo: knockout\n"))
	if err != nil || old.Verify != VerifyOff {
		t.Fatalf("a config recorded before verification: %q, %v", old.Verify, err)
	}
	c := Defaults()
	c.Game = "othello"
	back, err := ParseConfig(c.Marshal())
	if err != nil || back.Verify != VerifyAuto || !strings.Contains(string(c.Marshal()), "verify: auto\n") {
		t.Fatalf("a new run's config reads back verify %q, %v", back.Verify, err)
	}
	want, diff, err := old.ResumeWith([]byte("game: othello\nalgo: knockout\n"))
	if err != nil || len(diff) != 0 || want.Verify != VerifyOff {
		t.Fatalf("resuming an old run with its own keys: verify %q, diff %v, %v", want.Verify, diff, err)
	}
	if want, diff, err := old.ResumeWith([]byte("game: othello\nalgo: knockout\nverify: auto\n")); err != nil || want.Verify != VerifyAuto || !slices.Equal(diff, []string{"verify: off -> auto"}) {
		t.Fatalf("verify asked on resuming: %q, %v, %v", want.Verify, diff, err)
	}
	for _, bad := range []struct{ yaml, says string }{
		{"verify: maybe", `verify "maybe": auto`},
		{"verify-bounds: 10,0", "verify-bounds: stats: bad SPRT \"10,0\": elo0 (10) must be below elo1 (0)"},
		{"verify-bounds: x", `verify-bounds: stats: bad SPRT "x": elo0 "x" is not a number`},
		{"verify-pairs: -1", "verify-pairs -1: 1 to 100000 pairs, or 0 for a twentieth"},
	} {
		c := Defaults()
		c.Game = "othello"
		if err := MergeConfig(&c, []byte(bad.yaml)); err != nil {
			t.Fatal(err)
		}
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), bad.says) {
			t.Errorf("%s: %v, want %q", bad.yaml, err, bad.says)
		}
	}
	if got := []int{AutoVerifyPairs(0), AutoVerifyPairs(6000), AutoVerifyPairs(40_000), AutoVerifyPairs(1_000_000)}; !slices.Equal(got, []int{100, 150, 1000, 10_000}) {
		t.Errorf("auto pairs %v", got)
	}
}

// stopInVerify is a store that cancels the run when the n-th game of the
// verification is recorded.
type stopInVerify struct {
	*MemoryStore
	n, seen int
	cancel  context.CancelFunc
}

func (s *stopInVerify) RecordGame(r GameResult) error {
	if err := s.MemoryStore.RecordGame(r); err != nil {
		return err
	}
	if r.Key.Stage == StageVerify {
		if s.seen++; s.seen == s.n {
			s.cancel()
		}
	}
	return nil
}

// limitsSeen is a runner that notes the search of every game it plays.
type limitsSeen struct {
	tournament.Runner
	depths map[int]int // games by the first player's depth
}

func (l *limitsSeen) Run(ctx context.Context, specs []tournament.GameSpec, done func(int, tournament.Record) error) error {
	for _, s := range specs {
		if s.First.Limits != s.Second.Limits {
			return errors.New("the players of a game search differently")
		}
		l.depths[s.First.Limits.Depth]++
	}
	return l.Runner.Run(ctx, specs, done)
}

// verifyRun runs cfg from start on workers workers into store, on the
// openings of cfg, its games' searches noted in seen (nil: not noted).
func verifyRun(t *testing.T, ctx context.Context, cfg Config, start []float64, workers int, store Recorder, seen *limitsSeen) (Result, error) {
	t.Helper()
	g, _ := all.Find(cfg.Game)
	openings, err := tournament.RandomOpenings(context.Background(), g, cfg.Openings, cfg.Seed)
	if err != nil {
		t.Fatal(err)
	}
	pool, err := tournament.NewPool(workers, 1)
	if err != nil {
		t.Fatal(err)
	}
	var run tournament.Runner = pool
	if seen != nil {
		seen.Runner, run = pool, seen
	}
	cfg.TrainingPool = GrowingPool // as Resolve records it for a new run
	tu, err := NewTuner(cfg, g, openings, start, run, store)
	if err != nil {
		t.Fatal(err)
	}
	return tu.Run(ctx)
}

// verifyGames returns the verification's games in a store by key, their
// time left out.
func verifyGames(s *MemoryStore) map[GameKey]GameResult {
	out := map[GameKey]GameResult{}
	for k, r := range s.games {
		if k.Stage == StageVerify {
			r.Record.Duration, r.Record.Evals = 0, slices.Clone(r.Record.Evals)
			for i := range r.Record.Evals {
				r.Record.Evals[i].Time = 0
			}
			out[k] = r
		}
	}
	return out
}

// checkVerifyResume: a run of cfg from start ends with a verification,
// recorded, of the ladder's confident best against the start at depth + 2,
// as many games as it played, every one at depth + 2, every one from an
// opening no other game of the run opened from, each pair from its own;
// the same run interrupted in the middle of its verification (2 workers)
// and resumed (1 worker) plays only the games it had not recorded and
// ends with the same verification and the same games; and with verify
// off, a run that has everything else recorded plays nothing more and
// records no verification. It returns the verification.
func checkVerifyResume(t *testing.T, cfg Config, start []float64, stopAt int) *Verification {
	t.Helper()
	ctx := context.Background()
	want, seen := NewMemoryStore(), &limitsSeen{depths: map[int]int{}}
	res, err := verifyRun(t, ctx, cfg, start, 2, want, seen)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Verification
	if v == nil || res.Ladder == nil || !res.Ladder.Confident() || want.Verify == nil || !reflect.DeepEqual(*want.Verify, *v) {
		t.Fatalf("no verification recorded: %+v, ladder %+v", v, res.Ladder)
	}
	if best, ref := res.Ladder.Entries[res.Ladder.Best], res.Ladder.Entries[res.Ladder.Reference]; v.Best != best.Label || v.BestGenome != best.Genome ||
		v.Reference != "start" || ref.Label != "start" || v.ReferenceGenome != StartID || v.Depth != cfg.Depth+2 || v.Nodes != 0 {
		t.Fatalf("verified %s (%d) against %s (%d) at depth %d; the ladder's best is %s", v.Best, v.BestGenome, v.Reference, v.ReferenceGenome, v.Depth, best.Label)
	}
	games := verifyGames(want)
	if len(games) != v.Played || seen.depths[cfg.Depth+2] != v.Played || len(seen.depths) != 2 || v.Played%2 != 0 || v.Pairs > v.Played/2 {
		t.Fatalf("%d verification games recorded, %d played, %d counted pairs; games by depth %v", len(games), v.Played, v.Pairs, seen.depths)
	}
	used := map[string]bool{}
	for k, r := range want.games {
		if k.Stage != StageVerify {
			used[r.Record.Opening] = true
		}
	}
	pairsFrom := map[string]int{}
	for k, r := range games {
		if used[r.Record.Opening] {
			t.Fatalf("verification game %s opens as a game of the run: %s", k, r.Record.Opening)
		}
		if k.Index%2 == 0 {
			pairsFrom[r.Record.Opening]++
		}
	}
	t.Logf("%s; %d openings for %d pairs", v.Summary(), len(pairsFrom), v.Played/2)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stopped := &stopInVerify{MemoryStore: NewMemoryStore(), n: stopAt, cancel: cancel}
	if _, err := verifyRun(t, ctx, cfg, start, 2, stopped, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("the interrupted run returned %v", err)
	}
	if stopped.Verify != nil || stopped.seen < stopAt || stopped.seen >= v.Played {
		t.Fatalf("interrupted after %d of %d verification games, verification %+v", stopped.seen, v.Played, stopped.Verify)
	}
	before := stopped.Games()
	stopped.Played = 0
	again, err := verifyRun(t, context.Background(), cfg, start, 1, stopped.MemoryStore, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Verification, v) || !reflect.DeepEqual(stopped.Verify, v) {
		t.Fatalf("resumed: %+v\nuninterrupted: %+v", again.Verification, v)
	}
	if stopped.Played != want.Games()-before || !reflect.DeepEqual(verifyGames(stopped.MemoryStore), games) {
		t.Fatalf("the resumed run played %d games, want %d, or its verification's games differ", stopped.Played, want.Games()-before)
	}

	off := NewMemoryStore()
	for k, r := range want.games {
		if k.Stage != StageVerify {
			off.games[k] = r
		}
	}
	cfg.Verify = VerifyOff
	if res, err := verifyRun(t, context.Background(), cfg, start, 2, off, nil); err != nil || res.Verification != nil || off.Verify != nil || off.Played != 0 {
		t.Fatalf("verify off: %v, verification %+v, %d games played", err, res.Verification, off.Played)
	}
	return v
}

// TestVerifySmall: the verification of a knockout run of tic-tac-toe at
// depth 1 from weights that seek the opponent's lines, a fast version of
// TestVerifyOthello. Tic-tac-toe has few openings three plies deep, so the
// verification cycles through them and reaches its cap with no bound
// crossed; the defaults' interval there, +129 Elo [+102, +158], is above 0,
// so the one rule (stats.Kept) holds it (inconclusive before issue 55).
func TestVerifySmall(t *testing.T) {
	cfg := Defaults()
	cfg.Game, cfg.Algo, cfg.Depth, cfg.Openings, cfg.Seed = "tictactoe", Knockout, 1, "random:3", 3
	cfg.Candidates, cfg.Rounds, cfg.BestOf, cfg.Scale, cfg.YardstickPairs, cfg.LadderPairs = 6, 3, 2, 1, 0, 8
	v := checkVerifyResume(t, cfg, []float64{-5, 5, -5, 5}, 37)
	if v.Verdict() != VerdictHeld || v.Status != stats.Continue || v.Pairs != v.MaxPairs || v.MaxPairs != MinVerifyPairs {
		t.Errorf("verdict %s after %d of %d pairs", v.Verdict(), v.Pairs, v.MaxPairs)
	}
}

// TestVerifyOthello (issue 26, "verify before you claim"): a knockout run
// of Othello's report evaluator at depth 1 from weights that only count
// discs (2.5, 0, 0, 0) ends with a confident best, a champion rated above
// the defaults too, verified against the start at depth 3: the gain holds
// there (H1).
func TestVerifyOthello(t *testing.T) {
	if testing.Short() {
		t.Skip("plays about 600 games of Othello, a quarter of them at depth 3")
	}
	cfg := Defaults()
	cfg.Game, cfg.Evaluator, cfg.Algo, cfg.Depth, cfg.Openings, cfg.Seed = "othello", "report", Knockout, 1, "random:8", 2
	cfg.Candidates, cfg.Rounds, cfg.BestOf, cfg.Scale, cfg.YardstickPairs, cfg.LadderPairs = 6, 3, 2, 1, 0, 8
	v := checkVerifyResume(t, cfg, []float64{2.5, 0, 0, 0}, 41)
	if v.Verdict() != VerdictHeld || v.Pairs >= v.MaxPairs || v.Low <= 0 || v.BestGenome < 0 {
		t.Errorf("verdict %s", v.Summary())
	}
}

// TestVerifyDepths: a confident best is verified at the deeper search; a
// ladder's strongest rated above the reference without confidence is
// verified at the run's own, and when that holds, ChooseBest names it the
// best, by the verification; a strongest rated below the reference is not
// verified. Othello's report evaluator at depth 1: weights that count only
// discs against the defaults, which the defaults beat clearly.
func TestVerifyDepths(t *testing.T) {
	cfg := Defaults()
	cfg.Game, cfg.Evaluator, cfg.Depth, cfg.Openings, cfg.Seed = "othello", "report", 1, "random:8", 2
	g := mustFind(t, "othello")
	ev, err := cfg.TunedEvaluator(g)
	if err != nil {
		t.Fatal(err)
	}
	discs := []float64{2.5, 0, 0, 0}
	ladder := func(low float64) *Ladder {
		return &Ladder{Pairs: 4, Reference: 0, Best: 1, BestLow: low, BestHigh: low + 200, Entries: []LadderEntry{
			{Label: "g1", Genome: 1, Weights: discs, Elo: 0},
			{Label: "g2", Genome: 2, Weights: ev.Defaults(), Elo: low + 100}}}
	}
	for _, tc := range []struct {
		name   string
		low    float64
		depth  int
		source string
	}{{"confident", 20, 3, "ladder"}, {"not confident", -20, 1, "verification"}} {
		store := NewMemoryStore()
		tu := newTestTuner(t, cfg, 2, store, discs, nil)
		var res Result
		l := ladder(tc.low)
		if err := tu.verifyAtEnd(context.Background(), l, &res); err != nil {
			t.Fatal(err)
		}
		v := res.Verification
		if v == nil || v.Depth != tc.depth || v.Verdict() != VerdictHeld || store.Verify == nil {
			t.Fatalf("%s: verification %+v, want one held at depth %d", tc.name, v, tc.depth)
		}
		c, err := ChooseBest(ev, cfg, nil, l, v)
		if err != nil || c.Label != "g2" || !c.Confident || c.Source != tc.source {
			t.Errorf("%s: best %s (%v)", tc.name, c.Summary(), err)
		}
	}
	below := ladder(-20)
	below.Entries[1].Elo = -50
	var res Result
	if err := newTestTuner(t, cfg, 2, NewMemoryStore(), discs, nil).verifyAtEnd(context.Background(), below, &res); err != nil || res.Verification != nil {
		t.Errorf("a strongest below the reference: verification %+v, %v", res.Verification, err)
	}
}

// TestVerificationKeepsAtTheCap (issue 55): the verification decides by
// stats.Kept, the rule of learn's gate. The case: an SPSA run's
// strongest, verified over 250 pairs counted [32 3 109 72 34] by points
// (+51.1 Elo [+26.5, +76.2], worked by hand in stats.TestKept; LLR 2.23
// of ±2.94 for 0,10 nElo, so no bound crossed), is held: the interval is
// above 0 when the cap is reached. The same pairs under a cap of 300 stop
// short of it (inconclusive). The pairs are fed in a cycle that keeps the
// LLR between the bounds all the way.
func TestVerificationKeepsAtTheCap(t *testing.T) {
	counts := stats.Pentanomial{32, 3, 109, 72, 34}
	scores := [5][2]float64{{0, 0}, {0, 0.5}, {0.5, 0.5}, {1, 0.5}, {1, 1}}
	for _, c := range []struct {
		cap     int
		verdict string
	}{{250, VerdictHeld}, {300, VerdictInconclusive}} {
		v := Verification{Best: "g7", Reference: "defaults", Depth: 4, SPRT: stats.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}, MaxPairs: c.cap}
		left := counts
		for n := 0; n < counts.Pairs(); n++ {
			// the kind furthest behind its share of the pairs so far
			k := -1
			for i := range left {
				if left[i] > 0 && (k < 0 || left[i]*counts[k] > left[k]*counts[i]) {
					k = i
				}
			}
			left[k]--
			v.AddPair(scores[k][0], scores[k][1])
			if v.Status != stats.Continue {
				t.Fatalf("cap %d: the SPRT decided %v at pair %d", c.cap, v.Status, v.Pairs)
			}
		}
		if v.Pentanomial != counts || math.Abs(v.Elo-51.09) > 0.01 || math.Abs(v.Low-26.5) > 0.05 || math.Abs(v.LLR-2.23) > 0.01 {
			t.Fatalf("cap %d: %v, %+.2f [%+.2f, %+.2f], LLR %.3f", c.cap, v.Pentanomial, v.Elo, v.Low, v.High, v.LLR)
		}
		if v.Verdict() != c.verdict || (v.Verdict() == VerdictHeld) != stats.Kept(v.Status, v.Pentanomial, v.MaxPairs) {
			t.Errorf("cap %d: verdict %s, want %s", c.cap, v.Verdict(), c.verdict)
		}
	}
	v := Verification{Best: "g7", Reference: "defaults", Depth: 4, SPRT: stats.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05},
		MaxPairs: 250, Pairs: 250, Pentanomial: counts, Status: stats.Continue, LLR: 2.23, Elo: 51.09, Low: 26.5, High: 76.2}
	want := "g7 against the defaults at depth 4: held (no bound crossed in 250 pairs, the interval above 0), +51 Elo [+27, +76] over 250 pairs"
	if s := v.Summary(); !strings.Contains(s, want) {
		t.Errorf("summary %q, want it to say %q", s, want)
	}
}
