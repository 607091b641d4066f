package reports

import (
	"bytes"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
)

// TestWriteMatch: the match table as tune match prints it, from a
// match's own JSON shape: intervals by their bounds (an infinite one too),
// nElo, the pairs by points, level pairs and pairs won against lost, and
// the SPRT line with its model. An infinite bound is never printed: the
// line says why there is none.
func TestWriteMatch(t *testing.T) {
	sprt := stats.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	r := &tournament.MatchResult{WDL: stats.WDL{Wins: 5, Draws: 2, Losses: 3}, Pentanomial: stats.Pentanomial{0, 1, 1, 3, 0}, SPRT: &sprt}
	r.LLR = sprt.LLRPairs(r.Pentanomial)
	s := r.JSON("othello", "a", "b")
	s.Interrupted = true
	var b bytes.Buffer
	WriteMatch(&b, s)
	want := `othello: a vs b
games            10 (5 pairs), interrupted
W-D-L            5-2-3
score            60.0%
Elo (per game)   +70.4 [-123.2, +330.5]
Elo (per pair)   +70.4 [-52.7, +215.2]
nElo (per pair)  +122.8 [-92.5, +338.2]
LOS              76.0%
pairs by points  0 scored 0, 1 scored 0.5, 1 scored 1, 3 scored 1.5, 0 scored 2 (of 2)
level pairs      20.0% (1 point of 2: both games drawn, or one won by each side)
pairs won/lost   3/1 (3.00 won for each lost)
SPRT [0, 10]     LLR 0.09 (bounds -2.94, 2.94; normalized Elo): continue
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	s.Pentanomial, s.PairsRatio = [5]int{0, 0, 3, 0, 0}, stats.Float(math.NaN())
	s.PairElo, s.PairEloHigh = 400, stats.Float(math.Inf(1))
	b.Reset()
	WriteMatch(&b, s)
	for _, line := range []string{"Elo (per pair) +400.0 (at least -52.7; no upper bound yet)", "pairs won/lost none won or lost yet"} {
		if !strings.Contains(strings.Join(strings.Fields(b.String()), " "), line) {
			t.Errorf("no line %q in\n%s", line, b.String())
		}
	}
	// A 2-0 result in one pair, as tune match reports it: no infinite bound,
	// one pair in the singular.
	r = &tournament.MatchResult{WDL: stats.WDL{Wins: 2}, Pentanomial: stats.Pentanomial{0, 0, 0, 0, 1}}
	b.Reset()
	WriteMatch(&b, r.JSON("chess", "a", "b"))
	for _, line := range []string{"games 2 (1 pair)", "pairs won/lost 1/0", "nElo (per pair) - (too few pairs for an estimate)",
		"Elo (per game) - (every point won: the 95% interval starts at -113.4)", "level pairs 0.0%"} {
		if !strings.Contains(strings.Join(strings.Fields(b.String()), " "), line) {
			t.Errorf("no line %q in\n%s", line, b.String())
		}
	}
	if strings.Contains(b.String(), "Inf") || strings.Contains(b.String(), "pairs)") {
		t.Errorf("an infinite bound or a plural for one pair in\n%s", b.String())
	}
}

// TestWriteTournament: the standings, then a knockout's bracket with its
// bye, its tie break and its winner.
func TestWriteTournament(t *testing.T) {
	r := tournament.TournamentJSON{Game: "kono", Format: "knockout",
		Standings: []tournament.StandingJSON{{Player: "2:x", Games: 4, WDL: stats.WDL{Wins: 1, Draws: 2, Losses: 1}, Points: 2, Score: 0.5, Elo: 0, Low: -200, High: 200}},
		Bracket: []tournament.BracketJSON{{Round: 0, A: "1:x", B: "bye", Winner: "1:x"},
			{Round: 1, A: "1:x", B: "2:x", ScoreA: 1, ScoreB: 1, Games: 2, Winner: "2:x", TieBreak: "random"}},
		Winner: "2:x"}
	var b bytes.Buffer
	WriteTournament(&b, r)
	want := `kono knockout
rank  player  games  W-D-L  points  score  Elo vs field [95%]
1     2:x     4      1-2-1  2.0     50.0%  +0 Elo [-200, +200]
bracket:
  round 1: 1:x has a bye
  round 2: 1:x 1 - 1 2:x in 2 games: 2:x (tie broken: random)
winner: 2:x
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	r.Format, r.Bracket, r.Winner = "roundrobin", nil, ""
	if WriteTournament(&b, r); strings.Contains(b.String(), "bracket") || strings.Contains(b.String(), "winner") {
		t.Errorf("a round robin with a bracket:\n%s", b.String())
	}
}

// TestContestProgress: off a terminal, a match writes its tally every
// tenth of the pairs and after the last; a tournament counts its games
// from the first whose total is known, and a knockout's none.
func TestContestProgress(t *testing.T) {
	var b bytes.Buffer
	m := NewMatchProgress(&b, false, 3)
	res := &tournament.MatchResult{}
	for i := 0; i < 3; i++ {
		res.WDL.Add(1)
		res.WDL.Add(0.5)
		res.Pentanomial.AddPair(1, 0.5)
		m.Pair(res)
	}
	m.Finish()
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 || lines[0] != "[1/3 pairs] games 2, +1 =1 -0, score 75.0%, Elo +190.8 (at least -67.9; no upper bound yet)" ||
		!strings.HasPrefix(lines[2], "[3/3 pairs] games 6, +3 =3 -0") {
		t.Errorf("match: %q", b.String())
	}

	b.Reset()
	p := NewTournamentProgress(&b, false, "gauntlet")
	for i := 1; i <= 20; i++ {
		p.Game(i, 20, tournament.GameSpec{}, tournament.Record{})
	}
	p.Finish()
	// A line at the first game, then every tenth; within the stage's first
	// second, the count and no rate.
	if lines := strings.Split(strings.TrimSpace(b.String()), "\n"); len(lines) != 10 || lines[0] != "gauntlet: 1/20 games" || lines[1] != "gauntlet: 2/20 games" {
		t.Errorf("tournament: %q", b.String())
	}

	b.Reset()
	p = NewTournamentProgress(&b, false, "knockout")
	p.Game(1, 0, tournament.GameSpec{}, tournament.Record{})
	p.Finish()
	if b.Len() != 0 {
		t.Errorf("knockout: %q", b.String())
	}
}

// TestMatchProgressWhilePlaying: a match whose pairs take longer than the
// line interval (engines at a clock) says it is still playing, instead of
// staying silent for minutes (once 5 min 36 s against Stockfish).
func TestMatchProgressWhilePlaying(t *testing.T) {
	defer func(d time.Duration) { lineInterval = d }(lineInterval)
	lineInterval = 20 * time.Millisecond
	var b syncWriter
	m := NewMatchProgress(&b, false, 4)
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(b.String(), "[0/4 pairs] playing, ") {
		if time.Now().After(deadline) {
			t.Fatalf("no line while the first pair plays: %q", b.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	m.Finish()
	m.Finish() // twice is harmless
}

// syncWriter is a buffer safe for the ticker's goroutine and the test's.
type syncWriter struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
