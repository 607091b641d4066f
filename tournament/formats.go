package tournament

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament/stats"
)

// Runner plays batches of games. Run plays every spec and calls done for
// each finished game in spec order, from one goroutine at a time; when ctx
// is cancelled it delivers the games finished before the first unfinished
// one and returns ctx's error. *Pool is a Runner.
type Runner interface {
	Run(ctx context.Context, specs []GameSpec, done func(i int, r Record) error) error
}

// Options configure the games of a round robin, a gauntlet or a knockout
// tournament between players.
type Options struct {
	Game games.Game
	// Pairs is the number of colour-swapped pairs of games per pairing
	// (round robin and gauntlet; a bracket's matches have their own
	// length). It must be at least 1.
	Pairs int
	// Openings are positions in the game's notation; pair i of a pairing
	// (of a bracket match) starts from Openings[i % len(Openings)]. None:
	// every game from the start.
	Openings     []string
	MaxPlies     int // ply cap of a game; 0 means 400
	Adjudication Adjudication
	// OnGame, if not nil, is called after each finished game, in schedule
	// order, with the games finished so far, the total (0 when not known in
	// advance, as in a bracket), the game and its record. An error it
	// returns stops the tournament and is returned.
	OnGame func(done, total int, spec GameSpec, r Record) error
}

// Standing is one player's result in a tournament.
type Standing struct {
	Player int // index in the players given
	Name   string
	Record stats.WDL      // from the player's point of view
	Points float64        // wins plus half the draws
	Score  float64        // points per game; 0.5 with no game
	Elo    stats.Estimate // Elo against the opponents met, with its 95% interval
}

// Standings ranks players by their records: most points first, ties in
// player order. records[i] belongs to players[i].
func Standings(players []Player, records []stats.WDL) []Standing {
	out := make([]Standing, len(players))
	for i, p := range players {
		r := records[i]
		out[i] = Standing{Player: i, Name: p.Name, Record: r, Points: r.Points(), Score: r.Score(), Elo: r.EloEstimate()}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Points > out[j].Points })
	return out
}

// RoundRobinPairings returns every two of n players once, (i, j) with
// i < j, in order: (0,1), (0,2), ..., (1,2), ...
func RoundRobinPairings(n int) [][2]int {
	var out [][2]int
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			out = append(out, [2]int{i, j})
		}
	}
	return out
}

// GauntletPairings returns player 0 against each other of n players:
// (0,1), (0,2), ...
func GauntletPairings(n int) [][2]int {
	var out [][2]int
	for j := 1; j < n; j++ {
		out = append(out, [2]int{0, j})
	}
	return out
}

// RoundRobin plays every two players against each other over opts.Pairs
// colour-swapped pairs (MatchSpecs) and returns the standings. When ctx is
// cancelled it returns the standings of the games finished with ctx's
// error.
func RoundRobin(ctx context.Context, run Runner, players []Player, opts Options) ([]Standing, error) {
	return PlayPairings(ctx, run, players, RoundRobinPairings(len(players)), opts)
}

// Gauntlet plays the first player against every other over opts.Pairs
// colour-swapped pairs and returns the standings, as RoundRobin does.
func Gauntlet(ctx context.Context, run Runner, players []Player, opts Options) ([]Standing, error) {
	return PlayPairings(ctx, run, players, GauntletPairings(len(players)), opts)
}

// PlayPairings plays each pairing (two indices into players) as a match of
// opts.Pairs colour-swapped pairs (MatchSpecs), all on run in one batch,
// and returns the standings. The result depends on the players, the
// pairings and the options alone. When ctx is cancelled or opts.OnGame
// fails it returns the standings of the games finished with the error.
func PlayPairings(ctx context.Context, run Runner, players []Player, pairings [][2]int, opts Options) ([]Standing, error) {
	if len(players) < 2 {
		return nil, fmt.Errorf("tournament: %d players (want at least two)", len(players))
	}
	if opts.Pairs < 1 {
		return nil, fmt.Errorf("tournament: %d pairs per pairing (want 1 or more)", opts.Pairs)
	}
	if opts.Game == nil {
		return nil, errors.New("tournament: no game")
	}
	var specs []GameSpec
	var who [][2]int // the pairing of each spec, in pairing order
	for _, p := range pairings {
		a, b := p[0], p[1]
		if a < 0 || b < 0 || a >= len(players) || b >= len(players) || a == b {
			return nil, fmt.Errorf("tournament: pairing %d-%d of %d players", a, b, len(players))
		}
		for _, s := range MatchSpecs(opts.Game, players[a], players[b], opts.Pairs, opts.Openings, opts.MaxPlies, opts.Adjudication) {
			specs = append(specs, s)
			who = append(who, [2]int{a, b})
		}
	}
	records := make([]stats.WDL, len(players))
	err := run.Run(ctx, specs, func(i int, r Record) error {
		s := r.Score()
		if i%2 == 1 { // MatchSpecs: the second game of each pair has b first
			s = 1 - s
		}
		records[who[i][0]].Add(s)
		records[who[i][1]].Add(1 - s)
		if opts.OnGame != nil {
			return opts.OnGame(i+1, len(specs), specs[i], r)
		}
		return nil
	})
	return Standings(players, records), err
}

// First is the entrant that moves first in the game: A, or B when Swap.
func (g BracketGame) First() int {
	if g.Swap {
		return g.B
	}
	return g.A
}

// Second is the entrant that moves second in the game.
func (g BracketGame) Second() int {
	if g.Swap {
		return g.A
	}
	return g.B
}

// ScoreA is entrant A's points (1, 0.5 or 0) in the game that gave r.
func (g BracketGame) ScoreA(r Record) float64 {
	if g.Swap {
		return 1 - r.Score()
	}
	return r.Score()
}

// BracketResult is a played knockout bracket.
type BracketResult struct {
	Winner  int            // entrant index; meaningful only without error
	Matches []BracketMatch // every match, byes included, with entrant indices
	Records []stats.WDL    // each entrant's games, from its point of view
}

// BracketGames plays a batch of bracket games, game i with entrant
// batch[i].First() moving first against batch[i].Second(), and returns
// their records in order. On error it may return the records of a prefix
// of the batch (the games finished); they are counted.
type BracketGames func(ctx context.Context, batch []BracketGame) ([]Record, error)

// PlayBracket is the adapter between Knockout and the games that decide a
// bracket: it plays each batch through play, scores every record from
// entrant A's point of view and keeps each entrant's record. Both the
// knockout tournament between players (KnockoutTournament) and the
// population's knockout tuner go through it.
func PlayBracket(ctx context.Context, n int, opts BracketOptions, play BracketGames) (BracketResult, error) {
	res := BracketResult{Records: make([]stats.WDL, max(n, 0))}
	winner, matches, err := Knockout(ctx, n, opts, func(ctx context.Context, batch []BracketGame) ([]float64, error) {
		recs, err := play(ctx, batch)
		if len(recs) > len(batch) {
			return nil, fmt.Errorf("tournament: %d records for %d bracket games", len(recs), len(batch))
		}
		if err == nil && len(recs) != len(batch) {
			return nil, fmt.Errorf("tournament: %d records for %d bracket games", len(recs), len(batch))
		}
		scores := make([]float64, len(recs))
		for i, r := range recs {
			bg := batch[i]
			scores[i] = bg.ScoreA(r)
			res.Records[bg.A].Add(scores[i])
			res.Records[bg.B].Add(1 - scores[i])
		}
		return scores, err
	})
	res.Winner, res.Matches = winner, matches
	return res, err
}

// KnockoutTournament plays a single-elimination bracket between players
// seeded in order (byes to the first), on run, through PlayBracket: pair p
// of a match (BracketGame.Pair) starts from opts.Openings[p %
// len(opts.Openings)]. opts.Pairs is not used: bracket sets the length of
// a match. It returns the bracket and the standings of every game played;
// when ctx is cancelled, those of the games finished, with ctx's error.
func KnockoutTournament(ctx context.Context, run Runner, players []Player, bracket BracketOptions, opts Options) (BracketResult, []Standing, error) {
	if len(players) < 2 {
		return BracketResult{}, nil, fmt.Errorf("tournament: %d players (want at least two)", len(players))
	}
	if opts.Game == nil {
		return BracketResult{}, nil, errors.New("tournament: no game")
	}
	played := 0
	res, err := PlayBracket(ctx, len(players), bracket, func(ctx context.Context, batch []BracketGame) ([]Record, error) {
		specs := make([]GameSpec, len(batch))
		for i, bg := range batch {
			op := ""
			if len(opts.Openings) > 0 {
				op = opts.Openings[bg.Pair()%len(opts.Openings)]
			}
			specs[i] = GameSpec{Game: opts.Game, Opening: op, First: players[bg.First()], Second: players[bg.Second()],
				Seed: uint64(bg.Index), MaxPlies: opts.MaxPlies, Adjudication: opts.Adjudication}
		}
		recs := make([]Record, 0, len(batch))
		err := run.Run(ctx, specs, func(i int, r Record) error {
			recs = append(recs, r)
			played++
			if opts.OnGame != nil {
				return opts.OnGame(played, 0, specs[i], r)
			}
			return nil
		})
		return recs, err
	})
	return res, Standings(players, res.Records), err
}

// IsFormat reports whether PlayFormat knows the format named name:
// "roundrobin", "gauntlet" or "knockout".
func IsFormat(name string) bool {
	return name == "roundrobin" || name == "gauntlet" || name == "knockout"
}

// PlayFormat plays a tournament between players on run in the format
// named format: "roundrobin" (RoundRobin), "gauntlet" (Gauntlet) or
// "knockout" (KnockoutTournament, with bracket). It returns the result as
// data: the standings, and a knockout's bracket and winner. When ctx is
// cancelled or opts.OnGame fails it returns the standings of the games
// finished (without a bracket) with the error.
func PlayFormat(ctx context.Context, run Runner, players []Player, format string, bracket BracketOptions, opts Options) (TournamentJSON, error) {
	if !IsFormat(format) {
		return TournamentJSON{}, fmt.Errorf("tournament: format %q (want roundrobin, gauntlet or knockout)", format)
	}
	if opts.Game == nil {
		return TournamentJSON{}, errors.New("tournament: no game")
	}
	out := TournamentJSON{Game: opts.Game.Name(), Format: format}
	var standings []Standing
	var err error
	switch format {
	case "roundrobin":
		standings, err = RoundRobin(ctx, run, players, opts)
	case "gauntlet":
		standings, err = Gauntlet(ctx, run, players, opts)
	case "knockout":
		var res BracketResult
		res, standings, err = KnockoutTournament(ctx, run, players, bracket, opts)
		if err == nil {
			out.Winner, out.Bracket = players[res.Winner].Name, BracketMatchesJSON(players, res.Matches)
		}
	}
	out.Standings = StandingsJSON(standings)
	return out, err
}
