package external

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gametune/gametune/tournament"
)

// ErrSpec is wrapped by every error of Parse, Spec.CheckCommand and Check
// that the user must fix: the spec itself is wrong, before any game.
var ErrSpec = errors.New("external: engine spec")

// Protocols an external engine may speak.
const (
	ProtocolUCI    = "uci"    // chess
	ProtocolXboard = "xboard" // chess: CECP, versions 1 and 2
	ProtocolGTP    = "gtp"    // Othello, as GRhino's gtp-rhino speaks it
)

// Option is one option set on an external engine: UCI's
// "setoption name NAME value VALUE", xboard's "option NAME=VALUE" (or
// "memory N" and "cores N" for the options memory and cores).
type Option struct {
	Name  string
	Value string
}

// Spec describes an external engine process as a player, in the spirit of
// cutechess-cli's and fastchess's -engine options. The zero values of the
// durations mean the defaults documented on each field. A Spec is a
// tournament.Engine: a Player with it as Engine is played by the process.
type Spec struct {
	Name     string   // the player's name; the command's base name when empty
	Command  string   // the executable
	Args     []string // its arguments
	Dir      string   // its working directory; "" inherits gametune's
	Protocol string   // ProtocolUCI, ProtocolXboard or ProtocolGTP
	Options  []Option

	// At most one limit: Depth, Nodes, MoveTime, or a clock (TC). A UCI
	// or xboard engine needs one (xboard's st takes whole seconds, its
	// nodes need an engine with feature nps=1); a GTP engine knows only
	// clocks, or plays at its own level with none.
	Depth    int
	Nodes    int64
	MoveTime time.Duration
	TC       *tournament.TimeControl

	// Restart starts a fresh process for every game; otherwise a process
	// is kept between games (and restarted only after a crash or a stall).
	Restart bool
	// TimeMargin is the time an engine may overstep its clock or movetime
	// before it loses on time; 0 means tournament.DefaultTimeMargin.
	TimeMargin time.Duration
	// Stall is how long a move without a clock may take before the engine
	// is declared stalled, and how long a handshake may take; 0 means 60s
	// for a move and 10s for a handshake.
	Stall time.Duration
}

var _ tournament.Engine = Spec{}

const (
	defaultStall     = 60 * time.Second
	defaultHandshake = 10 * time.Second
)

// Key names the process the spec runs (protocol, directory, command and
// arguments): a process started for one spec plays every spec with the
// same key, whatever options each sets.
func (e Spec) Key() string {
	return strings.Join(append([]string{e.Protocol, e.Dir, e.Command}, e.Args...), "\x00")
}

// NewMover returns the mover of the spec's key: its process starts with
// its first game, its stderr to log (nil: dropped), each line prefixed by
// the engine's name.
func (e Spec) NewMover(log io.Writer) tournament.Mover {
	return &mover{spec: e, log: log}
}

// Timing is the clock or the move time the referee keeps for the engine.
func (e Spec) Timing() tournament.Timing {
	return tournament.Timing{TC: e.TC, MoveTime: e.MoveTime, Margin: e.TimeMargin}
}

// IsSpec reports whether a player spec names an external engine (it has
// a cmd= key) rather than built-in weights.
func IsSpec(s string) bool {
	for _, kv := range strings.Split(s, ",") {
		if strings.HasPrefix(strings.TrimSpace(kv), "cmd=") {
			return true
		}
	}
	return false
}

// String writes the spec back in Parse's form.
// quoteValue wraps a spec value holding a comma in double quotes, as
// Parse reads it.
func quoteValue(v string) string {
	if strings.Contains(v, ",") {
		return `"` + v + `"`
	}
	return v
}

func (e Spec) String() string {
	q := quoteValue
	kv := []string{"cmd=" + q(e.Command), "proto=" + e.Protocol, "name=" + q(e.Name)}
	for _, a := range e.Args {
		kv = append(kv, "arg="+q(a))
	}
	if e.Dir != "" {
		kv = append(kv, "dir="+q(e.Dir))
	}
	for _, o := range e.Options {
		kv = append(kv, "option."+o.Name+"="+q(o.Value))
	}
	switch {
	case e.Depth > 0:
		kv = append(kv, fmt.Sprintf("depth=%d", e.Depth))
	case e.Nodes > 0:
		kv = append(kv, fmt.Sprintf("nodes=%d", e.Nodes))
	case e.MoveTime > 0:
		kv = append(kv, fmt.Sprintf("movetime=%d", e.MoveTime.Milliseconds()))
	case e.TC != nil:
		kv = append(kv, "tc="+e.TC.String())
	}
	if e.Restart {
		kv = append(kv, "restart=on")
	}
	if e.TimeMargin > 0 {
		kv = append(kv, fmt.Sprintf("timemargin=%d", e.TimeMargin.Milliseconds()))
	}
	if e.Stall > 0 {
		kv = append(kv, fmt.Sprintf("stall=%d", e.Stall.Milliseconds()))
	}
	return strings.Join(kv, ",")
}

// WithOptions returns a copy of e whose options are e's with opts set
// (replacing an option of the same name, compared without case as UCI
// does).
func (e Spec) WithOptions(opts ...Option) Spec {
	out := e
	out.Options = slices.Clone(e.Options)
	for _, o := range opts {
		i := slices.IndexFunc(out.Options, func(x Option) bool { return strings.EqualFold(x.Name, o.Name) })
		if i >= 0 {
			out.Options[i] = o
		} else {
			out.Options = append(out.Options, o)
		}
	}
	return out
}

// CheckCommand looks at the command without starting it: it must exist
// and be executable, and the protocol must be one the game's notation
// fits. The options are checked by Check, which talks to the engine.
func (e Spec) CheckCommand(gameName string) error {
	path := e.Command
	if e.Dir != "" && !filepath.IsAbs(path) && strings.ContainsRune(path, filepath.Separator) {
		path = filepath.Join(e.Dir, path)
	}
	found, err := exec.LookPath(path)
	if err != nil {
		return fmt.Errorf("%w: cmd=%s: %v (give the path of an executable)", ErrSpec, e.Command, unwrapExec(err))
	}
	if st, err := os.Stat(found); err != nil || st.IsDir() {
		return fmt.Errorf("%w: cmd=%s is not an executable file", ErrSpec, e.Command)
	}
	if e.Dir != "" {
		if st, err := os.Stat(e.Dir); err != nil || !st.IsDir() {
			return fmt.Errorf("%w: dir=%s is not a directory", ErrSpec, e.Dir)
		}
	}
	for _, o := range e.Options {
		if err := o.check(); err != nil {
			return fmt.Errorf("%w: %s: %v", ErrSpec, e.Name, err)
		}
	}
	want := map[string]string{ProtocolUCI: "chess", ProtocolXboard: "chess", ProtocolGTP: "othello"}[e.Protocol]
	if want != gameName {
		return fmt.Errorf("%w: %s: proto=%s plays %s, not %s", ErrSpec, e.Name, e.Protocol, want, gameName)
	}
	return nil
}

func unwrapExec(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err
	}
	return err
}
