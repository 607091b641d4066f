package cluster

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
)

// DefaultAudit is the share of games a coordinator plays again in full to
// check the workers' results (RunnerOptions.Audit).
const DefaultAudit = 0.02

// defaultMaxPlies is the ply cap of a spec whose MaxPlies is 0 (the
// tournament's referee's).
const defaultMaxPlies = 400

// ErrForged wraps the errors of results that cannot be the game their job
// describes: a move that is not legal, a game that goes on after its end,
// an outcome the moves and the job's rules do not give, or (found by the
// audit) moves that are not the moves the job's players make.
var ErrForged = errors.New("cluster: a result that is not its job's game")

// CheckResult replays the moves of res from the start position of spec
// with the game's rules and returns the game record they make, or an error
// wrapping ErrForged saying what is wrong. Every move must be legal and
// written as the game writes it, no move may follow the end of the game or
// pass the ply cap, the opening must be the spec's, and the outcome must
// follow from the moves (ByRule), the ply cap (ByPlyCap) or the job's
// adjudication (a draw after at least DrawAfter+DrawPlies plies, a win
// after at least ResignPlies plies, when the job adjudicates). Scores
// travel only when the job asks (Job.Scores), so an adjudication is checked
// as possible, not as made: the audit (a full replay, comparing the scores
// too when they came) checks that. The record's opening and moves are the
// game's own text, never the worker's; its nodes, duration and scores
// (one per move, in range) are the result's. Its cost is one move generation and one
// ParseMove per ply.
func CheckResult(spec tournament.GameSpec, res Result) (tournament.Record, error) {
	forged := func(format string, args ...any) (tournament.Record, error) {
		return tournament.Record{}, fmt.Errorf("%w: %s", ErrForged, fmt.Sprintf(format, args...))
	}
	if spec.Game == nil {
		return tournament.Record{}, errors.New("cluster: a game spec without a game")
	}
	if res.Error != "" {
		return forged("a result with an error (%q) has no game", res.Error)
	}
	p, err := openingPosition(spec)
	if err != nil {
		return tournament.Record{}, err
	}
	rec := tournament.Record{Opening: p.String(), Plies: len(res.Moves), Nodes: res.Nodes, Duration: time.Duration(res.Duration)}
	if res.Opening != rec.Opening {
		return forged("opening %.80q, the job's is %.80q", res.Opening, rec.Opening)
	}
	maxPlies := spec.MaxPlies
	if maxPlies <= 0 {
		maxPlies = defaultMaxPlies
	}
	if len(res.Moves) > maxPlies || res.Plies != len(res.Moves) {
		return forged("%d moves (%d plies claimed) with a ply cap of %d", len(res.Moves), res.Plies, maxPlies)
	}
	var legal []games.Move
	var outcome games.Outcome
	rec.Moves = make([]string, 0, len(res.Moves))
	for i, s := range res.Moves {
		legal, outcome = p.Moves(legal[:0])
		if outcome != games.Ongoing {
			return forged("move %d (%.40q) after the end of the game", i+1, s)
		}
		m, err := p.ParseMove(s)
		if err != nil || !slices.Contains(legal, m) {
			return forged("move %d (%.40q) is not legal in %s", i+1, s, p.String())
		}
		if text := p.FormatMove(m); text != s {
			return forged("move %d is written %.40q, the game writes %q", i+1, s, text)
		}
		rec.Moves = append(rec.Moves, s)
		p.Play(m)
	}
	_, outcome = p.Moves(legal[:0])
	rec.Outcome, rec.Reason, rec.Detail = games.Outcome(res.Outcome), tournament.Reason(res.Reason), res.Detail
	if rec.Evals, err = recordEvals(res); err != nil {
		return forged("%v", err)
	}
	why := checkEnd(spec.Adjudication, rec, outcome, maxPlies)
	if isFault(rec.Reason) {
		why = checkFault(spec, rec)
	}
	if why != "" {
		return forged("%s after %d plies: %s", rec.Reason, rec.Plies, why)
	}
	return rec, nil
}

// checkEnd says why a game of rec.Plies plies whose last position has the
// outcome final cannot have ended as rec says ("" when it can).
func checkEnd(a tournament.Adjudication, rec tournament.Record, final games.Outcome, maxPlies int) string {
	switch rec.Reason {
	case tournament.ByRule:
		if final == games.Ongoing {
			return "the game is not over"
		}
		if rec.Outcome != final {
			return fmt.Sprintf("outcome %d, the rules give %d", rec.Outcome, final)
		}
	case tournament.ByPlyCap:
		if final != games.Ongoing || rec.Plies != maxPlies || rec.Outcome != games.Draw {
			return fmt.Sprintf("a ply-cap draw needs an unfinished game of %d plies", maxPlies)
		}
	case tournament.ByAdjudication:
		if a.DrawPlies <= 0 || rec.Plies < a.DrawAfter+a.DrawPlies || rec.Outcome != games.Draw {
			return fmt.Sprintf("the job adjudicates draws after %d+%d plies (0: never)", a.DrawAfter, a.DrawPlies)
		}
	case tournament.ByResignation:
		if a.ResignPlies <= 0 || rec.Plies < a.ResignPlies || rec.Outcome == games.Draw {
			return fmt.Sprintf("the job adjudicates wins after %d plies (0: never)", a.ResignPlies)
		}
	default:
		return "not a way a played game ends"
	}
	return ""
}

func isFault(r tournament.Reason) bool {
	return r == tournament.ByTime || r == tournament.ByCrash || r == tournament.ByStall || r == tournament.ByIllegal
}

// checkFault says why a game cannot have been lost by a fault or on time
// as rec says ("" when it can): the loser must be a player that can fault,
// an external engine or a player on a clock. Which side faulted, and why,
// is the worker's word.
func checkFault(spec tournament.GameSpec, rec tournament.Record) string {
	var loser tournament.Player
	switch rec.Outcome {
	case games.FirstWins:
		loser = spec.Second
	case games.SecondWins:
		loser = spec.First
	default:
		return "a fault loses the game, not a draw"
	}
	if loser.Engine == nil && loser.Timing.TC == nil && loser.Timing.MoveTime == 0 {
		return fmt.Sprintf("%s is the built-in searcher without a clock, which cannot lose so", loser.Name)
	}
	return ""
}

// openingPosition returns the position the game of spec starts from,
// after the moves of an opening of the form "moves: m1 m2 ...".
func openingPosition(spec tournament.GameSpec) (games.Position, error) {
	if text, ok := strings.CutPrefix(spec.Opening, "moves:"); ok {
		p := spec.Game.Start()
		for _, s := range strings.Fields(text) {
			m, err := tournament.ParseLegal(p, s)
			if err != nil {
				return nil, fmt.Errorf("cluster: opening %q: %w", spec.Opening, err)
			}
			p.Play(m)
		}
		return p, nil
	}
	if spec.Opening == "" {
		return spec.Game.Start(), nil
	}
	p, err := spec.Game.ParsePosition(spec.Opening)
	if err != nil {
		return nil, fmt.Errorf("cluster: opening %q: %w", spec.Opening, err)
	}
	return p, nil
}

// sameGame says how got, a worker's game, differs from want, the game
// played here ("" when they are the same game).
func sameGame(got, want tournament.Record) string {
	for i := range min(len(got.Moves), len(want.Moves)) {
		if got.Moves[i] != want.Moves[i] {
			return fmt.Sprintf("ply %d is %s, the job's players play %s", i+1, got.Moves[i], want.Moves[i])
		}
	}
	switch {
	case len(got.Moves) != len(want.Moves):
		return fmt.Sprintf("%d plies, the job's players play %d", len(got.Moves), len(want.Moves))
	case got.Outcome != want.Outcome || got.Reason != want.Reason:
		return fmt.Sprintf("outcome %d by %s, the job's game ends %d by %s", got.Outcome, got.Reason, want.Outcome, want.Reason)
	case got.Nodes != want.Nodes:
		return fmt.Sprintf("%d nodes searched, the job's players search %d", got.Nodes, want.Nodes)
	case got.Opening != want.Opening:
		return "another opening"
	}
	for i := range min(len(got.Evals), len(want.Evals)) {
		g, w := got.Evals[i], want.Evals[i]
		if g.Score != w.Score || g.Scored != w.Scored || g.Depth != w.Depth {
			return fmt.Sprintf("ply %d's score is %d at depth %d, the job's players say %d at depth %d", i+1, g.Score, g.Depth, w.Score, w.Depth)
		}
	}
	return ""
}

// auditor decides which games are played again in full: a share of them,
// chosen by a hash of a secret seed and the job's key, so that the choice
// of a job depends on the seed and the job alone (not on the workers, nor
// on when its result came) and a worker, which does not know the seed,
// cannot tell which of its results will be checked.
type auditor struct {
	seed  [8]byte
	share float64
}

func newAuditor(share float64, seed uint64) auditor {
	a := auditor{share: share}
	if seed == 0 {
		rand.Read(a.seed[:])
	} else {
		binary.BigEndian.PutUint64(a.seed[:], seed)
	}
	return a
}

// sampled reports whether the game of the job key is played again.
func (a auditor) sampled(key string) bool {
	switch {
	case a.share <= 0:
		return false
	case a.share >= 1:
		return true
	}
	h := sha256.New()
	h.Write(a.seed[:])
	h.Write([]byte(key))
	u := binary.BigEndian.Uint64(h.Sum(nil))
	return float64(u>>11)/(1<<53) < a.share
}

// ParseShare reads an audit share: a percentage ("2%", "0.5%", "100%")
// or a fraction from 0 to 1 ("0.02"). "0" or "0%" audits nothing.
func ParseShare(s string) (float64, error) {
	text, percent := strings.CutSuffix(strings.TrimSpace(s), "%")
	x, err := strconv.ParseFloat(text, 64)
	if percent {
		x /= 100
	}
	if err != nil || math.IsNaN(x) || x < 0 || x > 1 {
		return 0, fmt.Errorf("cluster: audit share %q: want a percentage from 0%% to 100%% (\"2%%\") or a fraction from 0 to 1", s)
	}
	return x, nil
}

// AuditFlag is the --audit flag (a pflag.Value): a share as ParseShare
// reads it. Its zero value is unset, which audits DefaultAudit.
type AuditFlag struct {
	text  string
	share float64
}

func (v *AuditFlag) String() string {
	if v.text == "" {
		return fmt.Sprintf("%g%%", 100*DefaultAudit)
	}
	return v.text
}

func (v *AuditFlag) Type() string { return "share" }

func (v *AuditFlag) Set(s string) (err error) {
	v.share, err = ParseShare(s)
	v.text = s
	return err
}

// Share is the share as RunnerOptions.Audit takes it: 0 (DefaultAudit)
// when unset, -1 (none) for a share of 0 given.
func (v *AuditFlag) Share() float64 {
	if v.text != "" && v.share == 0 {
		return -1
	}
	return v.share
}
