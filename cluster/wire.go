package cluster

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
)

// WireVersion is the version of the job and result messages. A worker
// refuses a job of another version (another worker may know it). A job
// that names artifacts (WirePlayer.Tables) is of ArtifactsWireVersion, so
// that a worker older than artifacts refuses it, and hands it back, rather
// than failing it as a job that does not parse; a job with a player of
// WirePlayer.SolveRoot is of SolveRootWireVersion, so that a worker older
// than it does not play it with the engine's own endgame moves.
const (
	WireVersion          = 1
	ArtifactsWireVersion = 2
	SolveRootWireVersion = 3
)

// Bounds a worker enforces on a job, as on any user input, besides the
// search's own (engine.Limits.Check).
const (
	MaxMessage  = 1 << 20       // bytes of a job or result message
	maxPlies    = 100_000       // ply cap of a game
	maxTableMiB = 4096          // transposition table of a searcher
	maxName     = 200           // bytes of a player's name
	maxOpening  = 4096          // bytes of an opening position
	maxMoves    = maxPlies + 16 // moves of a result
	maxScore    = 1 << 30       // a mover's score (a won endgame's is beyond games.MaxEval)
	maxDetail   = 4096          // bytes of a fault's detail
)

// Job is the wire form of one game (a tournament.GameSpec), as JSON. The
// game and the evaluators travel by name and are resolved through the game
// registry by the worker; the searcher's table size travels too, so that a
// game played anywhere is the game played at home.
type Job struct {
	V            int                     `json:"v"`
	Key          string                  `json:"key"` // hex SHA-256 of the job with an empty key
	Game         string                  `json:"game"`
	Opening      string                  `json:"opening,omitempty"`
	First        WirePlayer              `json:"first"`
	Second       WirePlayer              `json:"second"`
	Seed         uint64                  `json:"seed"`
	MaxPlies     int                     `json:"max_plies,omitempty"`
	Adjudication tournament.Adjudication `json:"adjudication"`
	TableMiB     int                     `json:"table_mib"`
	// DeadlineMS is the time a worker may spend on the game, in
	// milliseconds (0: DefaultJobDeadline); past it the worker gives the
	// job up. Not part of the key: it does not change the game.
	DeadlineMS int64 `json:"deadline_ms,omitempty"`
	// Scores asks for the movers' scores in the result (Result.Evals), for
	// learning from them; a job that asks is of ArtifactsWireVersion.
	Scores bool `json:"scores,omitempty"`
}

// WirePlayer is a player of a job.
type WirePlayer struct {
	Name      string    `json:"name"`
	Evaluator string    `json:"evaluator"`
	Weights   []float64 `json:"weights"`
	Depth     int       `json:"depth,omitempty"`
	Nodes     int64     `json:"nodes,omitempty"`
	// Tables, when set, names the artifact (ArtifactName) holding the
	// evaluator's tables, a compact weights file; without it the player
	// plays the tables the game ships.
	Tables string `json:"tables,omitempty"`
	// Engine, when set, is an external engine that plays instead of the
	// built-in searcher (the fields above but Name unused).
	Engine *WireEngine `json:"engine,omitempty"`
	// SolveRoot is tournament.Search's (engine.Options.SolveRoot).
	SolveRoot bool `json:"solve_root,omitempty"`
}

// NewJob returns the job of spec, its key set. The key is a function of the
// spec (and table size) alone: the same game always has the same key, and
// since a game's result depends on its spec alone, one result serves every
// job of that key.
func NewJob(spec tournament.GameSpec, tableMiB int) (Job, error) {
	return newJob(spec, tableMiB, jobOptions{})
}

// tablesNamer names the artifact of an evaluator's tables, putting it on
// the broker if need be (a Runner's tableArtifacts).
type tablesNamer func(g games.Game, ev *games.Evaluator) (string, error)

// jobOptions say what a job may carry beyond NewJob's: players whose
// tables are not the game's own, named by tables, external engines, named
// by engine (nil: such players are refused), and the movers' scores in
// its result (scores).
type jobOptions struct {
	tables tablesNamer
	engine engineNamer
	scores bool
}

// newJob is NewJob with o.
func newJob(spec tournament.GameSpec, tableMiB int, o jobOptions) (Job, error) {
	if spec.Game == nil {
		return Job{}, errors.New("cluster: a game spec without a game")
	}
	j := Job{
		V: WireVersion, Game: spec.Game.Name(), Opening: spec.Opening,
		Seed: spec.Seed, MaxPlies: spec.MaxPlies, Adjudication: spec.Adjudication, TableMiB: tableMiB, Scores: o.scores,
	}
	var err error
	if j.First, err = wirePlayer(spec.Game, spec.First, o); err != nil {
		return Job{}, err
	}
	if j.Second, err = wirePlayer(spec.Game, spec.Second, o); err != nil {
		return Job{}, err
	}
	if j.First.Tables != "" || j.Second.Tables != "" || j.First.Engine != nil || j.Second.Engine != nil || j.Scores {
		j.V = ArtifactsWireVersion
	}
	if j.First.SolveRoot || j.Second.SolveRoot {
		j.V = SolveRootWireVersion
	}
	data, err := json.Marshal(j)
	if err != nil {
		return Job{}, fmt.Errorf("cluster: encoding a job: %w", err)
	}
	sum := sha256.Sum256(data)
	j.Key = hex.EncodeToString(sum[:16])
	j.DeadlineMS = DefaultJobDeadline.Milliseconds()
	return j, nil
}

// wirePlayer is the wire form of p, a player of g. The evaluator travels
// by name, so a worker plays the tables of g's own evaluator of that name,
// unless the player names others: a player whose tables are others (loaded
// from a weights file, or fitted) has them named by tables, or is refused
// when tables is nil, since a worker would play it with the wrong ones.
func wirePlayer(g games.Game, p tournament.Player, o jobOptions) (WirePlayer, error) {
	if p.Engine != nil {
		return wireEngine(p, o.engine)
	}
	if p.Evaluator == nil {
		return WirePlayer{}, fmt.Errorf("cluster: player %q has no evaluator", p.Name)
	}
	if p.Timing != (tournament.Timing{}) || p.Search != (tournament.Search{SolveRoot: p.Search.SolveRoot}) {
		return WirePlayer{}, fmt.Errorf("cluster: player %q plays on a clock or with the selective search, which the wire does not carry: play it on the local pool", p.Name)
	}
	w := WirePlayer{Name: p.Name, Evaluator: p.Evaluator.Name, Weights: p.Weights, Depth: p.Limits.Depth, Nodes: p.Limits.Nodes,
		SolveRoot: p.Search.SolveRoot}
	if len(p.Evaluator.Tables) > 0 || len(p.Evaluator.Data) > 0 {
		own, err := games.FindEvaluator(g, p.Evaluator.Name)
		if err == nil && !games.SameData(own.Data, p.Evaluator.Data) && o.tables != nil {
			w.Tables, err = o.tables(g, p.Evaluator)
			return w, err
		}
		if err != nil || !games.SameData(own.Data, p.Evaluator.Data) {
			return WirePlayer{}, fmt.Errorf("cluster: player %q: its %s tables are not the ones %s ships, which a worker would play instead: tables loaded from %s play on the local pool only",
				p.Name, p.Evaluator.Name, g.Name(), p.Name)
		}
	}
	return w, nil
}

// Encode returns the job's message.
func (j Job) Encode() ([]byte, error) {
	data, err := json.Marshal(j)
	if err != nil {
		return nil, fmt.Errorf("cluster: encoding job %s: %w", j.Key, err)
	}
	return data, nil
}

// ErrRefused wraps the errors of jobs a worker cannot play although another
// worker may (another wire version, a game or an evaluator it does not
// know): the job goes back to the queue.
var ErrRefused = errors.New("cluster: job refused")

// DecodeJob reads a job message and turns it into the game it describes,
// checking everything as user input: the version, the game and evaluators
// (through the registry), the weights (count and ranges), the limits, the
// opening. It never panics. A job this worker cannot play but another might
// gives an error wrapping ErrRefused; any other error means the job is bad.
// The job is returned as far as it was read (its key, when there is one).
// A job naming artifacts is refused: a worker fetches them (Worker).
func DecodeJob(data []byte) (Job, tournament.GameSpec, error) {
	return decodeJob(context.Background(), data, nil)
}

// jobSource gives what a job names beyond its message (a worker's
// workerTables, a runner's tableArtifacts): tables gives the evaluator
// named evaluator of g bound to the tables of the artifact named name;
// engine the external engine a job's player names, as this process runs
// it. Errors of what another process may have wrap ErrRefused.
type jobSource interface {
	tables(ctx context.Context, g games.Game, evaluator, name string) (*games.Evaluator, error)
	engine(g games.Game, e *WireEngine) (tournament.Engine, error)
}

// decodeJob is DecodeJob with the tables of its players from src (nil:
// a job naming tables is refused).
func decodeJob(ctx context.Context, data []byte, src jobSource) (Job, tournament.GameSpec, error) {
	var j Job
	if len(data) > MaxMessage {
		return j, tournament.GameSpec{}, fmt.Errorf("cluster: job of %d bytes (at most %d)", len(data), MaxMessage)
	}
	if err := strictUnmarshal(data, &j); err != nil {
		return j, tournament.GameSpec{}, fmt.Errorf("cluster: job does not parse: %w", err)
	}
	if j.V < WireVersion || j.V > SolveRootWireVersion {
		return j, tournament.GameSpec{}, fmt.Errorf("%w: wire version %d (this worker speaks %d to %d)", ErrRefused, j.V, WireVersion, SolveRootWireVersion)
	}
	if len(j.Key) == 0 || len(j.Key) > 64 {
		return j, tournament.GameSpec{}, fmt.Errorf("cluster: job key %q: want 1 to 64 characters", j.Key)
	}
	g, err := all.Find(j.Game)
	if err != nil {
		return j, tournament.GameSpec{}, fmt.Errorf("%w: %w", ErrRefused, err)
	}
	spec := tournament.GameSpec{Game: g, Opening: j.Opening, Seed: j.Seed, MaxPlies: j.MaxPlies, Adjudication: j.Adjudication}
	if len(j.Opening) > maxOpening {
		return j, spec, fmt.Errorf("cluster: job %s: opening of %d bytes (at most %d)", j.Key, len(j.Opening), maxOpening)
	}
	if strings.HasPrefix(j.Opening, "moves:") { // an opening external engines take (openingPosition)
		if _, err := openingPosition(spec); err != nil {
			return j, spec, fmt.Errorf("cluster: job %s: %w", j.Key, err)
		}
	} else if j.Opening != "" {
		if _, err := g.ParsePosition(j.Opening); err != nil {
			return j, spec, fmt.Errorf("cluster: job %s: opening: %w", j.Key, err)
		}
	}
	if j.MaxPlies < 0 || j.MaxPlies > maxPlies {
		return j, spec, fmt.Errorf("cluster: job %s: max_plies %d: want 0 to %d", j.Key, j.MaxPlies, maxPlies)
	}
	a := j.Adjudication
	for _, v := range []int{a.DrawAfter, a.DrawMargin, a.DrawPlies, a.ResignMargin, a.ResignPlies} {
		if v < 0 || v > games.MaxEval*4 {
			return j, spec, fmt.Errorf("cluster: job %s: adjudication setting %d out of range", j.Key, v)
		}
	}
	if j.DeadlineMS < 0 || j.DeadlineMS > maxJobDeadline.Milliseconds() {
		return j, spec, fmt.Errorf("cluster: job %s: deadline_ms %d: want 0 (the default) to %d", j.Key, j.DeadlineMS, maxJobDeadline.Milliseconds())
	}
	if j.TableMiB < 1 || j.TableMiB > maxTableMiB {
		return j, spec, fmt.Errorf("cluster: job %s: table_mib %d: want 1 to %d", j.Key, j.TableMiB, maxTableMiB)
	}
	if spec.First, err = readPlayer(ctx, g, j.First, src); err != nil {
		return j, spec, fmt.Errorf("cluster: job %s: first player: %w", j.Key, err)
	}
	if spec.Second, err = readPlayer(ctx, g, j.Second, src); err != nil {
		return j, spec, fmt.Errorf("cluster: job %s: second player: %w", j.Key, err)
	}
	return j, spec, nil
}

func readPlayer(ctx context.Context, g games.Game, w WirePlayer, src jobSource) (tournament.Player, error) {
	if len(w.Name) > maxName {
		return tournament.Player{}, fmt.Errorf("name of %d bytes (at most %d)", len(w.Name), maxName)
	}
	if w.Engine != nil {
		if src == nil {
			return tournament.Player{}, fmt.Errorf("%w: an external engine, which this reader does not play", ErrRefused)
		}
		e, err := src.engine(g, w.Engine)
		if err != nil {
			return tournament.Player{}, err
		}
		return tournament.Player{Name: w.Name, Engine: e}, nil
	}
	var ev *games.Evaluator
	for _, e := range g.Evaluators() {
		if e.Name == w.Evaluator {
			ev = e
		}
	}
	if ev == nil {
		return tournament.Player{}, fmt.Errorf("%w: %s has no evaluator %q", ErrRefused, g.Name(), w.Evaluator)
	}
	if w.Tables != "" {
		switch {
		case !validArtifactName(w.Tables):
			return tournament.Player{}, fmt.Errorf("tables %.80q: not an artifact's name (a SHA-256 in hex)", w.Tables)
		case ev.Bind == nil:
			return tournament.Player{}, fmt.Errorf("tables for %s, an evaluator without tables", ev.Name)
		case src == nil:
			return tournament.Player{}, fmt.Errorf("%w: its tables are artifact %s, which this reader does not fetch", ErrRefused, w.Tables)
		}
		var err error
		if ev, err = src.tables(ctx, g, w.Evaluator, w.Tables); err != nil {
			return tournament.Player{}, err
		}
	}
	if len(w.Weights) != len(ev.Features) {
		return tournament.Player{}, fmt.Errorf("%d weights for the %d features of %s", len(w.Weights), len(ev.Features), ev.Name)
	}
	for i, x := range w.Weights {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return tournament.Player{}, fmt.Errorf("weight %s is not a number", ev.Features[i].Name)
		}
	}
	if err := ev.Check(w.Weights); err != nil {
		return tournament.Player{}, err
	}
	limits := engine.Limits{Depth: w.Depth, Nodes: w.Nodes}
	if err := limits.Check(); err != nil {
		return tournament.Player{}, err
	}
	return tournament.Player{Name: w.Name, Evaluator: ev, Weights: w.Weights, Limits: limits,
		Search: tournament.Search{SolveRoot: w.SolveRoot}}, nil
}

// Result is the wire form of a finished game (or of a job a worker could
// not play: Error set).
type Result struct {
	V        int      `json:"v"`
	Key      string   `json:"key"`
	Worker   string   `json:"worker"`
	Error    string   `json:"error,omitempty"`   // the job could not be played
	Refused  bool     `json:"refused,omitempty"` // with Error: another worker may play it
	Outcome  int      `json:"outcome"`
	Reason   string   `json:"reason"`
	Opening  string   `json:"opening"`
	Moves    []string `json:"moves"`
	Plies    int      `json:"plies"`
	Nodes    int64    `json:"nodes"`
	Duration int64    `json:"duration_ns"`
	// Evals are the movers' words on their moves, one per move, when the
	// job asked for them (Job.Scores).
	Evals []WireEval `json:"evals,omitempty"`
	// Detail says why a player lost by a fault or on time (jobs of
	// ArtifactsWireVersion).
	Detail string `json:"detail,omitempty"`
	// Speed is the worker's nodes per second at its benchmark (jobs of
	// ArtifactsWireVersion): a run sees a slow machine.
	Speed int64 `json:"nps,omitempty"`
}

// WireEval is a mover's word on its move (tournament.MoveEval without its
// time, which is the machine's): its score when Scored, its depth.
type WireEval struct {
	Score  int  `json:"s"`
	Scored bool `json:"ok,omitempty"`
	Depth  int  `json:"d,omitempty"`
}

// NewResult returns the result message of a finished game.
func NewResult(key, worker string, r tournament.Record) Result {
	return Result{V: WireVersion, Key: key, Worker: worker, Outcome: int(r.Outcome), Reason: string(r.Reason),
		Opening: r.Opening, Moves: r.Moves, Plies: r.Plies, Nodes: r.Nodes, Duration: int64(r.Duration)}
}

// withEvals returns res carrying the movers' words of r.
func withEvals(res Result, r tournament.Record) Result {
	res.Evals = make([]WireEval, len(r.Evals))
	for i, e := range r.Evals {
		res.Evals[i] = WireEval{Score: e.Score, Scored: e.Scored, Depth: e.Depth}
	}
	return res
}

// recordEvals returns the words of a result's evals as a record's, nil
// when it carries none; an error when they are not one per move or out of
// range.
func recordEvals(res Result) ([]tournament.MoveEval, error) {
	if len(res.Evals) == 0 {
		return nil, nil
	}
	if len(res.Evals) != len(res.Moves) {
		return nil, fmt.Errorf("%d evals for %d moves", len(res.Evals), len(res.Moves))
	}
	out := make([]tournament.MoveEval, len(res.Evals))
	for i, e := range res.Evals {
		if e.Score < -maxScore || e.Score > maxScore || e.Depth < 0 || e.Depth > maxPlies {
			return nil, fmt.Errorf("ply %d's eval: score %d at depth %d", i+1, e.Score, e.Depth)
		}
		out[i] = tournament.MoveEval{Score: e.Score, Scored: e.Scored, Depth: e.Depth}
	}
	return out, nil
}

// DecodeResult reads a result message, checking its fields.
func DecodeResult(data []byte) (Result, error) {
	var r Result
	if len(data) > MaxMessage {
		return r, fmt.Errorf("cluster: result of %d bytes (at most %d)", len(data), MaxMessage)
	}
	if err := strictUnmarshal(data, &r); err != nil {
		return r, fmt.Errorf("cluster: result does not parse: %w", err)
	}
	if r.V != WireVersion {
		return r, fmt.Errorf("cluster: result of wire version %d (want %d)", r.V, WireVersion)
	}
	if r.Error != "" {
		return r, nil
	}
	switch tournament.Reason(r.Reason) {
	case tournament.ByRule, tournament.ByAdjudication, tournament.ByResignation, tournament.ByPlyCap,
		tournament.ByTime, tournament.ByCrash, tournament.ByStall, tournament.ByIllegal:
	default:
		return r, fmt.Errorf("cluster: result %s: reason %q", r.Key, r.Reason)
	}
	if o := games.Outcome(r.Outcome); o != games.FirstWins && o != games.SecondWins && o != games.Draw {
		return r, fmt.Errorf("cluster: result %s: outcome %d", r.Key, r.Outcome)
	}
	if r.Plies != len(r.Moves) || len(r.Moves) > maxMoves || r.Nodes < 0 || r.Duration < 0 || r.Speed < 0 || len(r.Detail) > maxDetail {
		return r, fmt.Errorf("cluster: result %s: %d plies, %d moves, %d nodes", r.Key, r.Plies, len(r.Moves), r.Nodes)
	}
	return r, nil
}

// Record returns the game record the result carries.
func (r Result) Record() tournament.Record {
	return tournament.Record{Outcome: games.Outcome(r.Outcome), Reason: tournament.Reason(r.Reason), Opening: r.Opening,
		Moves: r.Moves, Plies: r.Plies, Nodes: r.Nodes, Duration: time.Duration(r.Duration), Detail: r.Detail}
}

// strictUnmarshal decodes one JSON value with no unknown field and nothing
// after it.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the message")
	}
	return nil
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
