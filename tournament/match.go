package tournament

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament/stats"
)

// MatchSpecs returns the games of a match between a and b: pairs
// colour-swapped pairs, pair i from opening i modulo the openings (the
// start when there are none), a first in the first game of each pair.
func MatchSpecs(g games.Game, a, b Player, pairs int, openings []string, maxPlies int, adj Adjudication) []GameSpec {
	specs := make([]GameSpec, 0, 2*pairs)
	for i := 0; i < pairs; i++ {
		op := ""
		if len(openings) > 0 {
			op = openings[i%len(openings)]
		}
		specs = append(specs,
			GameSpec{Game: g, Opening: op, First: a, Second: b, Seed: uint64(2 * i), MaxPlies: maxPlies, Adjudication: adj},
			GameSpec{Game: g, Opening: op, First: b, Second: a, Seed: uint64(2*i + 1), MaxPlies: maxPlies, Adjudication: adj})
	}
	return specs
}

// MatchResult is the running tally of a match from a's point of view.
type MatchResult struct {
	WDL         stats.WDL
	Pentanomial stats.Pentanomial
	Records     []Record
	LLR         float64      // pentanomial LLR when an SPRT runs
	SPRT        *stats.SPRT  // nil without a test
	Status      stats.Status // the SPRT's verdict
}

// errSPRTStop stops a match whose SPRT crossed a bound.
var errSPRTStop = errors.New("tournament: SPRT bound crossed")

// RunMatch plays the match's specs (from MatchSpecs) on run (the local
// pool or another transport). After
// each finished pair it updates the tally, calls progress (if not nil),
// and stops early when the SPRT (if not nil) crosses a bound. An error
// from progress stops the match and is returned. When ctx is cancelled it
// returns the tally of the games finished so far with ctx's error.
func RunMatch(ctx context.Context, run Runner, specs []GameSpec, sprt *stats.SPRT, progress func(*MatchResult) error) (*MatchResult, error) {
	res := &MatchResult{SPRT: sprt}
	var pending float64
	err := run.Run(ctx, specs, func(i int, r Record) error {
		s := r.Score()
		if i%2 == 1 {
			s = 1 - s
		}
		res.WDL.Add(s)
		res.Records = append(res.Records, r)
		if i%2 == 0 {
			pending = s
			return nil
		}
		res.Pentanomial.AddPair(pending, s)
		if sprt != nil {
			res.LLR = sprt.LLRPairs(res.Pentanomial)
			res.Status = sprt.Decide(res.LLR)
		}
		if progress != nil {
			if err := progress(res); err != nil {
				return err
			}
		}
		if res.Status != stats.Continue {
			return errSPRTStop
		}
		return nil
	})
	if errors.Is(err, errSPRTStop) {
		err = nil
	}
	return res, err
}

// RecordWriter writes finished games to a file of records. WriteGame's
// error wraps the writer's (errors.Is finds it).
type RecordWriter interface {
	WriteGame(g games.Game, white, black string, r Record) error
}

// NewRecordWriter returns the game's own record format (PGN for chess) when
// it has one (games.Recorder), one line per game otherwise.
func NewRecordWriter(g games.Game, w io.Writer) RecordWriter {
	if r, ok := g.(games.Recorder); ok {
		return gameRecorder{r, w, new(int)}
	}
	return LineWriter{W: w}
}

type gameRecorder struct {
	r     games.Recorder
	w     io.Writer
	count *int
}

func (g gameRecorder) WriteGame(game games.Game, first, second string, r Record) error {
	*g.count++
	tags := [][2]string{{"Event", "gametune"}, {"Round", fmt.Sprint(*g.count)}, {games.TagFirst, first}, {games.TagSecond, second}, {"Termination", string(r.Reason)}}
	if err := g.r.WriteGame(g.w, tags, r.Opening, r.Moves, r.Outcome); err != nil {
		return fmt.Errorf("tournament: writing game %d: %w", *g.count, err)
	}
	return nil
}

// LineWriter writes one line per game: the players, the opening, the moves,
// the result and the reason, separated by " | ".
type LineWriter struct{ W io.Writer }

func (l LineWriter) WriteGame(g games.Game, first, second string, r Record) error {
	if _, err := fmt.Fprintf(l.W, "%s | %s | %s | %s | %s | %s | %s\n", g.Name(), first, second, r.Opening, strings.Join(r.Moves, " "), r.Outcome, r.Reason); err != nil {
		return fmt.Errorf("tournament: writing a game: %w", err)
	}
	return nil
}
