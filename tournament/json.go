package tournament

import (
	"slices"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament/stats"
)

// The JSON shapes of a match and of a tournament: what tune match --json
// and tune tournament --json print.

// MatchJSON is a match's result from A's point of view: the games, the
// score, the Elo difference per game and per colour-swapped pair with
// their 95% intervals, the likelihood of superiority, the pentanomial
// counts and the SPRT, if one ran.
type MatchJSON struct {
	Game  string `json:"game"`
	A     string `json:"a"`
	B     string `json:"b"`
	Games int    `json:"games"`
	Pairs int    `json:"pairs"`
	stats.WDL
	Score       stats.Float `json:"score"`
	Elo         stats.Float `json:"elo"`
	EloLow      stats.Float `json:"elo_low"`
	EloHigh     stats.Float `json:"elo_high"`
	PairElo     stats.Float `json:"pentanomial_elo"`
	PairEloLow  stats.Float `json:"pentanomial_elo_low"`
	PairEloHigh stats.Float `json:"pentanomial_elo_high"`
	LOS         stats.Float `json:"los"`
	// Normalized Elo per pair (fastchess's nElo) with its 95% interval,
	// the share of pairs that ended level and the pairs won over the
	// pairs lost.
	NElo        stats.Float `json:"nelo"`
	NEloLow     stats.Float `json:"nelo_low"`
	NEloHigh    stats.Float `json:"nelo_high"`
	DrawRatio   stats.Float `json:"draw_ratio"`
	PairsRatio  stats.Float `json:"pairs_ratio"`
	Pentanomial [5]int      `json:"pentanomial"`
	SPRT        *SPRTJSON   `json:"sprt,omitempty"`
	Clock       *ClockJSON  `json:"clock,omitempty"` // when a player played on a time control
	Interrupted bool        `json:"interrupted"`     // the match stopped before its end
}

// ClockJSON is how a match's players used their clocks: each one's losses
// on time, and the median share of its starting clock it had left at the
// end of its games (omitted for a player without a time control).
type ClockJSON struct {
	ATimeLosses int          `json:"a_time_losses"`
	BTimeLosses int          `json:"b_time_losses"`
	AMedianLeft *stats.Float `json:"a_median_left,omitempty"`
	BMedianLeft *stats.Float `json:"b_median_left,omitempty"`
}

// clockJSON sums up the clocks of records, game i with A as the first
// side when i is even (MatchSpecs' order); nil when no side played on a
// time control.
func clockJSON(records []Record) *ClockJSON {
	var c ClockJSON
	var left [2][]float64 // A, B
	for i, r := range records {
		a := games.Side(i % 2) // A's side
		for side := range games.Side(2) {
			who := 0
			if side != a {
				who = 1
			}
			if end := r.Clocks[side]; end.Start > 0 {
				left[who] = append(left[who], end.Share())
			}
			if r.Reason == ByTime && r.Outcome == games.WinFor(side.Other()) {
				if who == 0 {
					c.ATimeLosses++
				} else {
					c.BTimeLosses++
				}
			}
		}
	}
	if len(left[0]) == 0 && len(left[1]) == 0 {
		return nil
	}
	c.AMedianLeft, c.BMedianLeft = median(left[0]), median(left[1])
	return &c
}

// median is the median of xs, nil when there are none.
func median(xs []float64) *stats.Float {
	if len(xs) == 0 {
		return nil
	}
	s := slices.Sorted(slices.Values(xs))
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + m) / 2
	}
	f := stats.Float(m)
	return &f
}

// SPRTJSON is a match's sequential test: its hypotheses and error rates,
// the log-likelihood ratio with its bounds, and the verdict.
type SPRTJSON struct {
	Model  string      `json:"model"` // normalized or logistic
	Elo0   float64     `json:"elo0"`
	Elo1   float64     `json:"elo1"`
	Alpha  float64     `json:"alpha"`
	Beta   float64     `json:"beta"`
	LLR    stats.Float `json:"llr"`
	Lower  float64     `json:"lower"`
	Upper  float64     `json:"upper"`
	Status string      `json:"status"`
}

// JSON returns the match's result between the players named a and b of
// the game named game. Interrupted is left false.
func (r *MatchResult) JSON(game, a, b string) MatchJSON {
	e, p, n := r.WDL.EloEstimate(), r.Pentanomial.EloEstimate(), r.Pentanomial.NormalizedElo()
	s := MatchJSON{Game: game, A: a, B: b, Games: r.WDL.Games(), Pairs: r.Pentanomial.Pairs(),
		WDL: r.WDL, Score: stats.Float(r.WDL.Score()),
		Elo: stats.Float(e.Elo), EloLow: stats.Float(e.Low), EloHigh: stats.Float(e.High),
		PairElo: stats.Float(p.Elo), PairEloLow: stats.Float(p.Low), PairEloHigh: stats.Float(p.High),
		LOS: stats.Float(r.WDL.LOS()), Pentanomial: r.Pentanomial,
		NElo: stats.Float(n.Elo), NEloLow: stats.Float(n.Low), NEloHigh: stats.Float(n.High),
		DrawRatio: stats.Float(r.Pentanomial.DrawRatio()), PairsRatio: stats.Float(r.Pentanomial.PairsRatio())}
	if t := r.SPRT; t != nil {
		lo, hi := t.Bounds()
		s.SPRT = &SPRTJSON{t.Model.String(), t.Elo0, t.Elo1, t.Alpha, t.Beta, stats.Float(r.LLR), lo, hi, r.Status.String()}
	}
	s.Clock = clockJSON(r.Records)
	return s
}

// TournamentJSON is a tournament's result: the standings, best first, and
// for a knockout the bracket and its winner.
type TournamentJSON struct {
	Game      string         `json:"game"`
	Format    string         `json:"format"`
	Standings []StandingJSON `json:"standings"`
	Bracket   []BracketJSON  `json:"bracket,omitempty"`
	Winner    string         `json:"winner,omitempty"`
}

// StandingJSON is one player's line of the standings: its record, points,
// score and Elo against the opponents met, with the 95% interval.
type StandingJSON struct {
	Player string `json:"player"`
	Games  int    `json:"games"`
	stats.WDL
	Points float64     `json:"points"`
	Score  stats.Float `json:"score"`
	Elo    stats.Float `json:"elo"`
	Low    stats.Float `json:"elo_low"`
	High   stats.Float `json:"elo_high"`
}

// BracketJSON is one match of a knockout bracket, its entrants by name
// (B is "bye" when A advanced without playing).
type BracketJSON struct {
	Round    int     `json:"round"`
	A        string  `json:"a"`
	B        string  `json:"b"`
	ScoreA   float64 `json:"score_a"`
	ScoreB   float64 `json:"score_b"`
	Games    int     `json:"games"`
	Winner   string  `json:"winner"`
	TieBreak string  `json:"tie_break,omitempty"`
}

// StandingsJSON returns the standings as JSON lines, in their order.
func StandingsJSON(standings []Standing) []StandingJSON {
	var out []StandingJSON
	for _, s := range standings {
		r, e := s.Record, s.Elo
		out = append(out, StandingJSON{s.Name, r.Games(), r, s.Points,
			stats.Float(s.Score), stats.Float(e.Elo), stats.Float(e.Low), stats.Float(e.High)})
	}
	return out
}

// BracketMatchesJSON returns a bracket's matches with their entrants named
// from players.
func BracketMatchesJSON(players []Player, matches []BracketMatch) []BracketJSON {
	out := make([]BracketJSON, len(matches))
	for i, m := range matches {
		out[i] = BracketJSON{Round: m.Round, A: players[m.A].Name, B: "bye", ScoreA: m.ScoreA, ScoreB: m.ScoreB,
			Games: m.Games, Winner: players[m.Winner].Name, TieBreak: m.TieBreak}
		if m.B != Bye {
			out[i].B = players[m.B].Name
		}
	}
	return out
}
