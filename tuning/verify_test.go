package tuning

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament"
)

// stopAt is a pool of two workers that cancels a run after its n-th game
// at depth (counting the games it plays, from 1); n 0 never.
type stopAt struct {
	*tournament.Pool
	depth, n int
	seen     *int
	cancel   context.CancelFunc
}

func (s stopAt) Close() { s.Pool.Close() }

func (s stopAt) Run(ctx context.Context, specs []tournament.GameSpec, done func(int, tournament.Record) error) error {
	return s.Pool.Run(ctx, specs, func(i int, r tournament.Record) error {
		if err := done(i, r); err != nil {
			return err
		}
		if specs[i].First.Limits.Depth == s.depth {
			if *s.seen++; *s.seen == s.n {
				s.cancel()
			}
		}
		return nil
	})
}

// stopping opens stopAt runners, all counting in seen.
func stopping(depth, n int, seen *int, cancel context.CancelFunc) Opener {
	return func(ctx context.Context, name, dir string) (Runner, error) {
		p, err := tournament.NewPool(2, 1)
		return stopAt{p, depth, n, seen, cancel}, err
	}
}

// startFile writes a weights file of game's evaluator ev in a new folder.
func startFile(t *testing.T, game, ev string, w map[string]float64) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, `{"game": %q, "evaluator": %q, "weights": {`, game, ev)
	i := 0
	for name, v := range w {
		if i++; i > 1 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q: %g", name, v)
	}
	b.WriteString("}}")
	path := filepath.Join(t.TempDir(), "start.json")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// verifyGame is the verification's game at index i of a run, its time
// left out.
func verifyGame(t *testing.T, r *results.Run, i int) tournament.Record {
	t.Helper()
	g, ok, err := r.Game(population.GameKey{Stage: population.StageVerify, Index: i})
	if err != nil || !ok {
		t.Fatalf("no verification game %d in %s: %v", i, r.Dir(), err)
	}
	g.Record.Duration = 0
	return g.Record
}

// TestVerifyRecorded (issue 26, "verify before you claim"): a knockout run
// of Othello's report evaluator at depth 1 from a weights file that counts
// discs only ends with a confident best, verified against the start at
// depth 3 in the run's SQLite store: the gain held (H1). Its progress
// shows the verification's games, its result the verdict, and so do the
// run's view (the best marked verified) and its report. The same run
// interrupted during its verification, and resumed, records the same
// verification from the same games.
func TestVerifyRecorded(t *testing.T) {
	if testing.Short() {
		t.Skip("plays about 1,200 games of Othello, a quarter of them at depth 3")
	}
	cfg := population.Defaults()
	cfg.Game, cfg.Evaluator, cfg.Algo, cfg.Depth, cfg.Openings, cfg.Seed = "othello", "report", population.Knockout, 1, "random:8", 2
	cfg.Candidates, cfg.Rounds, cfg.BestOf, cfg.Scale, cfg.YardstickPairs, cfg.LadderPairs = 6, 3, 2, 1, 0, 8
	cfg.Start = startFile(t, "othello", "report", map[string]float64{"discs": 2.5, "mobility": 0, "position": 0, "corner-pattern": 0})
	plan, whole := newRun(t, cfg)
	var stdout, stderr bytes.Buffer
	never := 0
	if err := Tune(context.Background(), plan, whole, stopping(0, 0, &never, nil), Output{&stdout, &stderr, false}); err != nil {
		t.Fatal(err)
	}
	v, err := results.ReadView(whole)
	if err != nil {
		t.Fatal(err)
	}
	ver := v.Verification
	if ver == nil || ver.Verdict() != population.VerdictHeld || ver.Best != v.Best.Label || ver.Reference != "start" || ver.Depth != 3 {
		t.Fatalf("verification %+v of best %s", ver, v.Best.Summary())
	}
	if b := v.BestJSON(); b.Verified != population.VerdictHeld || v.VerificationJSON().Verdict != population.VerdictHeld {
		t.Errorf("the view's best is not marked verified: %+v", b)
	}
	if want := "verification: " + ver.Summary(); !strings.Contains(stdout.String(), want) {
		t.Errorf("the result lacks %q:\n%s", want, stdout.String())
	}
	if want := fmt.Sprintf("verify: 1/%d games", 2*ver.MaxPairs); !strings.Contains(stderr.String(), want) {
		t.Errorf("the progress lacks %q:\n%s", want, stderr.String())
	}
	page, _ := os.ReadFile(filepath.Join(whole.Dir(), "report.html"))
	if !strings.Contains(html.UnescapeString(string(page)), `<p id="verification">Verification at a deeper search: `+ver.Summary()) {
		t.Error("the report lacks the verification")
	}
	t.Log(ver.Summary())

	plan, run := newRun(t, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := 0
	if err := Tune(ctx, plan, run, stopping(3, 45, &seen, cancel), Output{io.Discard, io.Discard, true}); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted: %v", err)
	}
	if n, _ := run.CountGames(population.StageVerify, 0); n < 45 || n >= ver.Played {
		t.Fatalf("interrupted after %d verification games of %d", n, ver.Played)
	}
	if got, err := run.Verification(); got != nil || err != nil {
		t.Fatalf("an interrupted verification recorded %+v, %v", got, err)
	}
	if err := Tune(context.Background(), plan, run, local(t), Output{io.Discard, io.Discard, true}); err != nil {
		t.Fatal(err)
	}
	got, err := run.Verification()
	if err != nil || !reflect.DeepEqual(got, ver) {
		t.Fatalf("resumed: %+v, %v\nuninterrupted: %+v", got, err, ver)
	}
	for i := range ver.Played {
		if a, b := verifyGame(t, whole, i), verifyGame(t, run, i); a.Opening != b.Opening || !slices.Equal(a.Moves, b.Moves) || a.Outcome != b.Outcome {
			t.Fatalf("verification game %d: %v from %s, resumed %v from %s", i, a.Moves, a.Opening, b.Moves, b.Opening)
		}
	}
}

// TestOldRunNotVerified: a run recorded before verification (its config
// without the verify keys), interrupted and resumed from its recorded
// config, ends as it would have begun: its best is confident (the run
// recorded now is verified: TestVerifyShown, population's
// TestVerifySmall), but it plays no verification and records none.
// Tic-tac-toe from weights that seek the opponent's lines.
func TestOldRunNotVerified(t *testing.T) {
	cfg := population.Defaults()
	cfg.Game, cfg.Algo, cfg.Depth, cfg.Openings, cfg.Seed = "tictactoe", population.Knockout, 1, "random:3", 3
	cfg.Candidates, cfg.Rounds, cfg.BestOf, cfg.Scale, cfg.YardstickPairs, cfg.LadderPairs = 6, 3, 2, 1, 0, 8
	cfg.Start = startFile(t, "tictactoe", "lines", map[string]float64{"open-mine": -5, "open-theirs": 5, "threats-mine": -5, "threats-theirs": 5})
	_, old := newRun(t, cfg)
	var kept []string
	for _, line := range strings.SplitAfter(string(old.Config()), "\n") {
		if !strings.HasPrefix(line, "verify") {
			kept = append(kept, line)
		}
	}
	if err := old.SetConfig([]byte(strings.Join(kept, ""))); err != nil {
		t.Fatal(err)
	}
	recorded, err := old.ReadConfig()
	if err != nil || recorded.Verify != population.VerifyOff {
		t.Fatalf("the old run's config reads verify %q, %v", recorded.Verify, err)
	}
	plan, err := population.Resolve(context.Background(), recorded, sources)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := 0
	if err := Tune(ctx, plan, old, stopping(1, 50, &seen, cancel), Output{io.Discard, io.Discard, true}); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted: %v", err)
	}
	if err := Tune(context.Background(), plan, old, local(t), Output{io.Discard, io.Discard, true}); err != nil {
		t.Fatal(err)
	}
	v, err := results.ReadView(old)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := old.CountGames(population.StageVerify, 0); n != 0 || v.Verification != nil || !v.Best.Confident || v.BestJSON().Verified != "" {
		t.Fatalf("the old run played %d verification games, recorded %+v; best %s", n, v.Verification, v.Best.Summary())
	}
}
