package learn

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/gob"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/weights"
)

// resumable is patternsConfig with its positions file and state in dir, named.
func resumable(t *testing.T, dir, name string, workers int) Config {
	t.Helper()
	cfg := patternsConfig(t, workers, filepath.Join(dir, name+".pos"))
	cfg.State = filepath.Join(dir, name+".state")
	return cfg
}

// sameResult fails unless two runs ended with the same tables and weights
// (bit for bit), the same rounds (but their times) and the same games.
func sameResult(t *testing.T, what string, got, want *Result) {
	t.Helper()
	if !games.SameData(got.Data, want.Data) || !reflect.DeepEqual(got.Weights, want.Weights) {
		t.Errorf("%s: the tables or weights differ from an uninterrupted run's", what)
	}
	if !reflect.DeepEqual(strip(got.Rounds), strip(want.Rounds)) || got.Played != want.Played {
		t.Errorf("%s: rounds %+v, played %d; want %+v, %d", what, strip(got.Rounds), got.Played, strip(want.Rounds), want.Played)
	}
	if !reflect.DeepEqual(got.Set.Games, want.Set.Games) {
		t.Errorf("%s: %d games, want the %d of an uninterrupted run", what, len(got.Set.Games), len(want.Set.Games))
	}
}

// TestLearnResumes: a run interrupted in a round's self-play, in its fit or
// in its gate, then started again with the same Config, ends with the
// result of an uninterrupted run: the same tables, rounds and games (the
// positions file holds the games finished before the interruption, and no game is
// played twice). A kill that lost the games of its last quarter second is
// the same, and so is one in the middle of an append (the block it cut
// short is cut from the file). A finished run started again only reads its
// result back.
func TestLearnResumes(t *testing.T) {
	dir := t.TempDir()
	whole, err := Learn(context.Background(), resumable(t, dir, "whole", 1))
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct {
		name  string
		stop  func(p Progress) bool
		lose  int  // games removed from the positions file's end after the stop, as a kill loses them
		atPos int  // games the positions file must hold when stopped, at least
		torn  bool // a block cut short after the stop, as a kill in an append leaves it
	}{
		{"round 1's self-play", func(p Progress) bool { return p.Round == 1 && p.Stage == "self-play" && p.Done >= 6 }, 0, 16, false},
		{"round 0's fit", func(p Progress) bool { return p.Round == 0 && p.Stage == "fit" }, 0, 10, false},
		{"round 1's gate", func(p Progress) bool { return p.Round == 1 && p.Stage == "gate" }, 0, whole.Rounds[1].Games, false},
		{"killed in round 1", func(p Progress) bool { return p.Round == 1 && p.Stage == "self-play" && p.Done >= 12 }, 3, 19, false},
		{"killed in an append", func(p Progress) bool { return p.Round == 1 && p.Stage == "self-play" && p.Done >= 8 }, 0, 18, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && i > 0 {
				t.Skip("one case under -short")
			}
			cfg := resumable(t, t.TempDir(), "cut", 2)
			ctx, cancel := context.WithCancel(context.Background())
			cfg.Progress = func(p Progress) {
				if tc.stop(p) {
					cancel()
				}
			}
			if _, err := Learn(ctx, cfg); !errors.Is(err, context.Canceled) {
				t.Fatalf("interrupted: %v, want context.Canceled", err)
			}
			cut, err := ReadPositionsFile(cfg.PositionsFile, cfg.Game)
			if err != nil || len(cut.Games) < tc.atPos || !reflect.DeepEqual(cut.Games, whole.Set.Games[:len(cut.Games)]) {
				t.Fatalf("interrupted: the positions file holds %d games (%v), want at least %d, the uninterrupted run's first", len(cut.Games), err, tc.atPos)
			}
			if tc.lose > 0 {
				os.Remove(cfg.PositionsFile)
				if err := AppendPositionsFile(cfg.PositionsFile, cfg.Game, cut.Games[:len(cut.Games)-tc.lose]); err != nil {
					t.Fatal(err)
				}
			}
			if tc.torn {
				f, err := os.OpenFile(cfg.PositionsFile, os.O_WRONLY|os.O_APPEND, 0)
				if err != nil {
					t.Fatal(err)
				}
				f.WriteString("gametune-games 2 othello 3\n\x3c")
				f.Close()
			}
			cfg.Progress = nil
			again, err := Learn(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			sameResult(t, "started again", again, whole)
			stored, err := ReadPositionsFile(cfg.PositionsFile, cfg.Game)
			if err != nil || !reflect.DeepEqual(stored.Games, whole.Set.Games) {
				t.Errorf("the positions file holds %d games (%v), want the uninterrupted run's %d", len(stored.Games), err, len(whole.Set.Games))
			}
			done, err := Learn(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			sameResult(t, "a finished run started again", done, whole)
		})
	}
}

// TestLearnStateRefused: a state file of other settings, a positions file that
// does not continue the run, or a positions file that lost games, is refused with
// the way out in the message; RemoveState removes the state and, without
// PositionsFile, the games kept beside it.
func TestLearnStateRefused(t *testing.T) {
	dir := t.TempDir()
	cfg := resumable(t, dir, "a", 1)
	ctx, cancel := context.WithCancel(context.Background())
	cfg.Progress = func(p Progress) {
		if p.Round == 1 && p.Stage == "self-play" && p.Done >= 4 {
			cancel()
		}
	}
	if _, err := Learn(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted: %v", err)
	}
	cfg.Progress = nil
	other := cfg
	other.Seed++
	if _, err := Learn(context.Background(), other); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "holds the state of an interrupted learn with other settings") ||
		!strings.Contains(err.Error(), "remove "+cfg.State+" to start afresh") {
		t.Errorf("other settings: %v", err)
	}
	stored, err := ReadPositionsFile(cfg.PositionsFile, cfg.Game)
	if err != nil {
		t.Fatal(err)
	}
	n := len(stored.Games)
	// The positions file of another seed's games: not this run's.
	foreign := resumable(t, t.TempDir(), "b", 1)
	foreign.Seed += 100
	if _, err := Learn(context.Background(), foreign); err != nil {
		t.Fatal(err)
	}
	theirs, _ := ReadPositionsFile(foreign.PositionsFile, cfg.Game)
	for what, gs := range map[string][]Game{"not this run's": theirs.Games[:n], "lost games": stored.Games[:5]} {
		os.Remove(cfg.PositionsFile)
		if err := AppendPositionsFile(cfg.PositionsFile, cfg.Game, gs); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"not this run's": "does not open from the position the interrupted run drew for it", "lost games": "it lost games since"}[what]
		if _, err := Learn(context.Background(), cfg); !errors.Is(err, ErrBadPositionsFile) || !strings.Contains(err.Error(), want) {
			t.Errorf("a positions file %s: %v, want %q", what, err, want)
		}
	}
	// A positions file cut short is cut back only for a run that goes on from its
	// state: without one, it is an error, and the file is left as it is.
	plain := patternsConfig(t, 1, filepath.Join(t.TempDir(), "plain.pos"))
	if err := AppendPositionsFile(plain.PositionsFile, plain.Game, stored.Games[:3]); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(plain.PositionsFile, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("gametune-games 2 othello 3\n\x3c")
	f.Close()
	before, _ := os.ReadFile(plain.PositionsFile)
	if _, err := Learn(context.Background(), plain); !errors.Is(err, ErrBadPositionsFile) || !strings.Contains(err.Error(), "truncated: block 2") {
		t.Errorf("a positions file cut short, no state: %v", err)
	}
	if after, _ := os.ReadFile(plain.PositionsFile); !bytes.Equal(after, before) {
		t.Error("a positions file cut short was changed by a run without state")
	}
	// Without PositionsFile, the games are kept beside the state until RemoveState.
	alone := resumable(t, t.TempDir(), "c", 1)
	alone.PositionsFile = ""
	if _, err := Learn(context.Background(), alone); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{alone.State, alone.State + ".games"} {
		if _, err := os.Stat(path); err != nil {
			t.Errorf("after the run: %v", err)
		}
	}
	if err := RemoveState(alone); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{alone.State, alone.State + ".games"} {
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("after RemoveState, %s: %v", path, err)
		}
	}
}

// TestLearnEndPlays: a run of each end play, interrupted in round 1's
// self-play and started again, ends with the result of its uninterrupted
// run (TestLearnResumes interrupts runs of the default, EndPlaySolver, at
// each stage); the two plays' games differ, their results do not (both
// play exactly from 12 empty squares). A state that records no end play
// (written before EndPlay) goes on with EndPlayEngine, to the result of an
// uninterrupted run of that play; a play other than the state's is
// refused, and so is an unknown one.
func TestLearnEndPlays(t *testing.T) {
	wholes := map[EndPlay]*Result{}
	for _, play := range []EndPlay{EndPlaySolver, EndPlayEngine} {
		cfg := resumable(t, t.TempDir(), "whole", 1)
		cfg.EndPlay = play
		whole, err := Learn(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if whole.EndPlay != play {
			t.Errorf("a run of %s: its result says %s", play, whole.EndPlay)
		}
		wholes[play] = whole
	}
	solver, engine := wholes[EndPlaySolver].Set.Games, wholes[EndPlayEngine].Set.Games
	differ := 0
	for i := range engine {
		if solver[i].Result != engine[i].Result {
			t.Errorf("game %d: result %v with the solver's moves, %v with the engine's", i, solver[i].Result, engine[i].Result)
		}
		if !reflect.DeepEqual(solver[i].Moves, engine[i].Moves) {
			differ++
		}
	}
	if len(solver) != len(engine) || differ == 0 {
		t.Errorf("%d games with the solver's moves, %d with the engine's, %d differ: want as many, some differing", len(solver), len(engine), differ)
	}
	for _, c := range []struct {
		name    string
		play    EndPlay // the interrupted run's
		old     bool    // its state rewritten without its end play, as written before EndPlay
		again   EndPlay // the play given when started again
		want    EndPlay // the run's result's, "" for refused
		refusal string
	}{
		{"engine, again with none given", EndPlayEngine, false, "", EndPlayEngine, ""},
		{"engine, again with engine", EndPlayEngine, false, EndPlayEngine, EndPlayEngine, ""},
		{"solver, again with none given", EndPlaySolver, false, "", EndPlaySolver, ""},
		{"a state before end plays", EndPlayEngine, true, "", EndPlayEngine, ""},
		{"a state before end plays, again with solver", EndPlayEngine, true, EndPlaySolver, "", "whose end play is engine, not solver"},
		{"solver, again with engine", EndPlaySolver, false, EndPlayEngine, "", "whose end play is solver, not engine"},
		{"an unknown play", EndPlaySolver, false, "perfect", "", `end play "perfect": want one of solver, engine`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && !c.old && c.want != "" {
				t.Skip("under -short: the state before end plays and the refusals")
			}
			cfg := resumable(t, t.TempDir(), "cut", 2)
			cfg.EndPlay = c.play
			ctx, cancel := context.WithCancel(context.Background())
			cfg.Progress = func(p Progress) {
				if p.Round == 1 && p.Stage == "self-play" && p.Done >= 6 {
					cancel()
				}
			}
			if _, err := Learn(ctx, cfg); !errors.Is(err, context.Canceled) {
				t.Fatalf("interrupted: %v, want context.Canceled", err)
			}
			if c.old {
				forgetEndPlay(t, cfg)
			}
			cfg.Progress, cfg.EndPlay = nil, c.again
			again, err := Learn(context.Background(), cfg)
			if c.want == "" {
				if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.refusal) {
					t.Errorf("started again: %v, want %q", err, c.refusal)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if again.EndPlay != c.want {
				t.Errorf("started again: end play %s, want %s", again.EndPlay, c.want)
			}
			sameResult(t, "started again", again, wholes[c.want])
		})
	}
}

// forgetEndPlay rewrites cfg's state as it was written before EndPlay:
// the same, without the end play.
func forgetEndPlay(t *testing.T, cfg Config) {
	t.Helper()
	l := &learner{cfg: cfg, settings: fingerprint(cfg)}
	st, err := l.readState()
	if err != nil || st == nil {
		t.Fatalf("the state: %v", err)
	}
	ev, err := cfg.Evaluator.WithData(st.data)
	if err != nil {
		t.Fatal(err)
	}
	l.fileGames = st.FileGames
	if err := l.save(&Result{Evaluator: ev, Weights: st.weights, Rounds: st.Rounds, Played: st.Played}); err != nil {
		t.Fatal(err)
	}
	source, err := weights.FileSource(cfg.State)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := source[stateKey].(string)
	raw, err := base64.StdEncoding.DecodeString(text)
	var written runState
	if err == nil {
		err = gob.NewDecoder(bytes.NewReader(raw)).Decode(&written)
	}
	if err != nil || written.EndPlay != "" || written.Settings != st.Settings || len(written.Rounds) != len(st.Rounds) {
		t.Fatalf("the state rewritten: %v, end play %q, %d rounds; want none, %d", err, written.EndPlay, len(written.Rounds), len(st.Rounds))
	}
}
