package reports

import (
	"fmt"
	"io"
	"math"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
)

// WriteMatch writes a match's result as a table for a terminal (tune
// match): the games, W-D-L, the score, the Elo per game and per pair, the
// normalized Elo, the LOS, the pairs by their points with the share of
// level pairs and the pairs won against those lost, and the SPRT, if one
// ran. An interval with an infinite bound (a clean sweep, or no pair yet)
// is not printed: the line says why instead.
func WriteMatch(w io.Writer, s tournament.MatchJSON) {
	interrupted := ""
	if s.Interrupted {
		interrupted = ", interrupted"
	}
	estimate := func(elo, lo, hi stats.Float) string {
		return estimateText(float64(elo), float64(lo), float64(hi))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s: %s vs %s\n", s.Game, s.A, s.B)
	fmt.Fprintf(tw, "games\t%d (%s)%s\n", s.Games, Count(s.Pairs, "pair"), interrupted)
	fmt.Fprintf(tw, "W-D-L\t%d-%d-%d\n", s.Wins, s.Draws, s.Losses)
	fmt.Fprintf(tw, "score\t%.1f%%\n", 100*s.Score)
	fmt.Fprintf(tw, "Elo (per game)\t%s\n", estimate(s.Elo, s.EloLow, s.EloHigh))
	fmt.Fprintf(tw, "Elo (per pair)\t%s\n", estimate(s.PairElo, s.PairEloLow, s.PairEloHigh))
	fmt.Fprintf(tw, "nElo (per pair)\t%s\n", estimate(s.NElo, s.NEloLow, s.NEloHigh))
	fmt.Fprintf(tw, "LOS\t%.1f%%\n", 100*s.LOS)
	p := s.Pentanomial
	fmt.Fprintf(tw, "pairs by points\t%d scored 0, %d scored 0.5, %d scored 1, %d scored 1.5, %d scored 2 (of 2)\n", p[0], p[1], p[2], p[3], p[4])
	if s.Pairs > 0 {
		fmt.Fprintf(tw, "level pairs\t%.1f%% (1 point of 2: both games drawn, or one won by each side)\n", 100*s.DrawRatio)
	}
	won, lost := p[3]+p[4], p[0]+p[1]
	switch {
	case won+lost == 0:
		fmt.Fprintf(tw, "pairs won/lost\tnone won or lost yet\n")
	case lost == 0:
		fmt.Fprintf(tw, "pairs won/lost\t%d/0\n", won)
	default:
		fmt.Fprintf(tw, "pairs won/lost\t%d/%d (%.2f won for each lost)\n", won, lost, float64(won)/float64(lost))
	}
	if t := s.SPRT; t != nil {
		fmt.Fprintf(tw, "SPRT [%g, %g]\tLLR %.2f (bounds %.2f, %.2f; %s Elo): %s\n", t.Elo0, t.Elo1, t.LLR, t.Lower, t.Upper, t.Model, t.Status)
	}
	tw.Flush()
}

// estimateText is an Elo estimate with its 95% interval, "+70.4 [-123.2,
// +330.5]", or, where a bound is infinite, the estimate with the reason no
// interval is given.
func estimateText(elo, lo, hi float64) string {
	switch {
	case (math.IsInf(lo, 0) && math.IsInf(hi, 0)) || math.IsNaN(elo):
		return "- (too few pairs for an estimate)"
	case math.IsInf(elo, 1):
		return fmt.Sprintf("- (every point won: the 95%% interval starts at %+.1f)", lo+0)
	case math.IsInf(elo, -1):
		return fmt.Sprintf("- (every point lost: the 95%% interval ends at %+.1f)", hi+0)
	case math.IsInf(hi, 1):
		return fmt.Sprintf("%+.1f (at least %+.1f; no upper bound yet)", elo+0, lo+0)
	case math.IsInf(lo, -1):
		return fmt.Sprintf("%+.1f (at most %+.1f; no lower bound yet)", elo+0, hi+0)
	}
	return stats.Estimate{Elo: elo, Low: lo, High: hi}.String()
}

// WriteTournament writes a tournament's result for a terminal (tune
// tournament): the standings as a table, and a knockout's bracket round by
// round with its winner.
func WriteTournament(w io.Writer, t tournament.TournamentJSON) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s %s\n", t.Game, t.Format)
	fmt.Fprintln(tw, "rank\tplayer\tgames\tW-D-L\tpoints\tscore\tElo vs field [95%]")
	for i, s := range t.Standings {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d-%d-%d\t%.1f\t%.1f%%\t%s\n", i+1, s.Player, s.Games, s.Wins, s.Draws, s.Losses, s.Points, 100*s.Score, EloInterval(float64(s.Elo), float64(s.Low), float64(s.High)))
	}
	tw.Flush()
	if len(t.Bracket) == 0 {
		return
	}
	fmt.Fprintln(w, "bracket:")
	for _, m := range t.Bracket {
		if m.B == "bye" {
			fmt.Fprintf(w, "  round %d: %s has a bye\n", m.Round+1, m.A)
			continue
		}
		tie := ""
		if m.TieBreak != "" {
			tie = " (tie broken: " + m.TieBreak + ")"
		}
		fmt.Fprintf(w, "  round %d: %s %g - %g %s in %d games: %s%s\n", m.Round+1, m.A, m.ScoreA, m.ScoreB, m.B, m.Games, m.Winner, tie)
	}
	fmt.Fprintf(w, "winner: %s\n", t.Winner)
}

// lineInterval is the longest a match or a tournament goes without a
// plain progress line (off a terminal), when its games take that long.
var lineInterval = 5 * time.Second

// MatchProgress shows a running match (tune match): on a terminal a bar
// of pairs described by the tally, otherwise a line with the tally every
// tenth of the pairs, after the last, and after a pair that ends
// lineInterval or more after the last line; between pairs that take longer
// (engines at a real clock), a line every lineInterval saying the match is
// still playing.
type MatchProgress struct {
	bar          *Progress
	pairs, every int

	mu       sync.Mutex // the lines and done, between Pair and the ticker
	done     int
	start    time.Time
	interval time.Duration // lineInterval, as the match began
	stop     chan struct{}
}

// NewMatchProgress starts the display of a match of pairs pairs on w
// (nothing when quiet).
func NewMatchProgress(w io.Writer, quiet bool, pairs int) *MatchProgress {
	m := &MatchProgress{bar: NewProgress(w, quiet, 0), pairs: pairs, every: max(1, pairs/10), start: time.Now(),
		interval: lineInterval, stop: make(chan struct{})}
	m.bar.Start("match", pairs)
	if !quiet && !m.bar.terminal {
		go m.tick()
	}
	return m
}

// tick writes a line when lineInterval passed without one, until Finish.
func (m *MatchProgress) tick() {
	t := time.NewTicker(m.interval)
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
			m.mu.Lock()
			if time.Since(m.bar.lastLine) >= m.interval {
				m.bar.lastLine = time.Now()
				m.bar.Line(fmt.Sprintf("[%d/%d pairs] playing, %s so far", m.done, m.pairs, time.Since(m.start).Round(time.Second)))
			}
			m.mu.Unlock()
		}
	}
}

// Pair shows the match after a finished pair. It has the shape of
// tournament.RunMatch's progress and returns nil.
func (m *MatchProgress) Pair(res *tournament.MatchResult) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	done := res.Pentanomial.Pairs()
	m.done = done
	m.bar.Set(done)
	m.bar.Note(matchLine(res))
	if !m.bar.terminal && (done%m.every == 0 || done == m.pairs || time.Since(m.bar.lastLine) >= m.interval) {
		m.bar.lastLine = time.Now()
		m.bar.Line(fmt.Sprintf("[%d/%d pairs] %s", done, m.pairs, matchLine(res)))
	}
	return nil
}

// Finish ends the display.
func (m *MatchProgress) Finish() {
	m.mu.Lock()
	defer m.mu.Unlock()
	select {
	case <-m.stop:
	default:
		close(m.stop)
	}
	m.bar.Finish()
}

// matchLine is the tally of a running match in a line.
func matchLine(res *tournament.MatchResult) string {
	e := res.WDL.EloEstimate()
	line := fmt.Sprintf("games %d, +%d =%d -%d, score %.1f%%, Elo %s", res.WDL.Games(), res.WDL.Wins, res.WDL.Draws, res.WDL.Losses,
		100*res.WDL.Score(), estimateText(e.Elo, e.Low, e.High))
	if res.SPRT != nil {
		lo, hi := res.SPRT.Bounds()
		line += fmt.Sprintf(", LLR %.2f [%.2f, %.2f]", res.LLR, lo, hi)
	}
	return line
}

// TournamentProgress shows a running tournament (tune tournament) as
// Progress does, labelled with the format, from the first game whose
// total is known (a knockout's never is: it shows nothing).
type TournamentProgress struct {
	w     io.Writer
	quiet bool
	label string
	bar   *Progress
}

// NewTournamentProgress returns the display of a tournament on w (nothing
// when quiet), labelled label.
func NewTournamentProgress(w io.Writer, quiet bool, label string) *TournamentProgress {
	return &TournamentProgress{w: w, quiet: quiet, label: label}
}

// Game shows the tournament after a finished game: done games of total (0
// when not known). It has the shape of tournament.Options.OnGame and
// returns nil.
func (t *TournamentProgress) Game(done, total int, _ tournament.GameSpec, _ tournament.Record) error {
	if t.bar == nil && total > 0 {
		t.bar = NewProgress(t.w, t.quiet, max(1, total/10))
		t.bar.Interval = lineInterval
		t.bar.Start(t.label, total)
	}
	if t.bar != nil {
		t.bar.Set(done)
	}
	return nil
}

// Finish ends the display.
func (t *TournamentProgress) Finish() {
	if t.bar != nil {
		t.bar.Finish()
	}
}
