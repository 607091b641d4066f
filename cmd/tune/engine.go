package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/spf13/cobra"
)

type engineOptions struct {
	protocol  string
	evaluator string
	weights   string
	limits    searchLimits
	tableMiB  int
}

func newEngineCommand(g *globalOptions) *cobra.Command {
	var o engineOptions
	c := &cobra.Command{
		Use:   "engine GAME",
		Short: "Run as an engine process: UCI (chess), GTP or NBoard (Othello) on standard input and output",
		Long: `engine makes gametune's engine for GAME a standard engine process for GUIs, match
runners and other tools: it reads commands on standard input and answers on
standard output, with the weights of --weights (a file 'tune export' wrote) or
the evaluator's defaults.

  chess      --protocol uci (the default): UCI with every feature weight as a spin
             option; 'go' takes depth, nodes, movetime, clocks or infinite
  othello    --protocol gtp (the default), as GRhino's gtp-rhino speaks it, or
             --protocol nboard, as the NBoard GUI speaks it
  others     --protocol uci: the same commands with positions and moves in the
             game's own notation (checkers: B:W21-32:B1-12 and 11-15)

--depth and --nodes bound the searches of GTP's genmove and NBoard's go (until
'set depth') when no clock is given. Errors in the input are answered with one
line (UCI: "info string error: ..."; GTP: "? ..."; NBoard: "status error: ...")
and the engine keeps its last legal state. End of input ends the process.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runEngine(c.Context(), c.InOrStdin(), c.OutOrStdout(), args[0], o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.protocol, "protocol", "", "uci, gtp or nboard (default: gtp for othello, uci for the other games)")
	f.StringVar(&o.evaluator, "evaluator", "", "evaluator name (default: the game's first; see 'tune games')")
	f.StringVar(&o.weights, "weights", "", "weights file (JSON, as 'tune export' writes)")
	o.limits.bind(f, 6)
	f.IntVar(&o.tableMiB, "hash", 16, hashHelp)
	return c
}

func runEngine(ctx context.Context, in io.Reader, out io.Writer, gameName string, o engineOptions) error {
	g, err := findGame(gameName)
	if err != nil {
		return err
	}
	proto := o.protocol
	if proto == "" {
		proto = "uci"
		if g.Name() == "othello" {
			proto = "gtp"
		}
	}
	switch proto {
	case "uci":
	case "gtp", "nboard":
		if g.Name() != "othello" {
			return usageError{fmt.Errorf("--protocol %s: the protocol is for Othello; %s speaks uci", proto, g.Name())}
		}
	default:
		return usageError{fmt.Errorf("--protocol %q: want uci, gtp or nboard", proto)}
	}
	ev, w, err := player(g, o.evaluator, o.weights)
	if err != nil {
		return err
	}
	lim, err := o.limits.limits()
	if err != nil {
		return err
	}
	if err := checkHash(o.tableMiB); err != nil {
		return err
	}
	e, err := newEnginePlayer(g, ev, w, o.tableMiB, lim, out)
	if err != nil {
		return usageError{err}
	}
	lines := readCommands(ctx, in)
	defer e.stop()
	switch proto {
	case "gtp":
		return serveGTP(ctx, lines, e)
	case "nboard":
		return serveNBoard(ctx, lines, e)
	}
	return serveUCI(ctx, lines, e)
}

// maxLine bounds an input line: a UCI position after a thousand moves or a
// GGF game is a few KiB.
const maxLine = 1 << 20

// nextLine waits for the next line of input: ok is false at the end of the
// input, and the error is ctx's when it is cancelled first.
func nextLine(ctx context.Context, lines <-chan commandLine) (l commandLine, ok bool, err error) {
	select {
	case <-ctx.Done():
		return commandLine{}, false, ctx.Err()
	case l, ok = <-lines:
		return l, ok, nil
	}
}

// commandLine is one line of standard input, or why it could not be read.
type commandLine struct {
	text string
	err  error // a line longer than maxLine (skipped)
}

// readCommands reads in on its own goroutine, so that the protocols answer
// while a search runs and stop at once when ctx ends. The channel is closed
// at the end of the input.
func readCommands(ctx context.Context, in io.Reader) <-chan commandLine {
	ch := make(chan commandLine)
	go func() {
		defer close(ch)
		r := bufio.NewReaderSize(in, 64<<10)
		for {
			var b []byte
			var err error
			long := false
			for {
				var part []byte
				part, err = r.ReadSlice('\n')
				if len(b)+len(part) <= maxLine {
					b = append(b, part...)
				} else {
					long = true
				}
				if err != bufio.ErrBufferFull {
					break
				}
			}
			if len(b) == 0 && !long && err != nil {
				return
			}
			l := commandLine{text: strings.TrimRight(string(b), "\r\n")}
			if long {
				l = commandLine{err: fmt.Errorf("a line longer than %d bytes was skipped", maxLine)}
			}
			select {
			case ch <- l:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return ch
}

// lineWriter writes whole lines to the GUI, one writer at a time: the
// protocol loop and the search's goroutine both answer.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) println(lines ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var b strings.Builder
	for _, s := range lines {
		b.WriteString(s)
		b.WriteByte('\n')
	}
	io.WriteString(l.w, b.String())
}

// write writes text as it is (GTP responses carry their own empty line).
func (l *lineWriter) write(text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	io.WriteString(l.w, text)
}

// enginePlayer is the built-in player behind every protocol: the game and
// the position the GUI set up, the evaluator and its weights, the searcher,
// and the search in flight. Its methods are called from the protocol loop
// only; a search runs on its own goroutine and reports through a callback.
type enginePlayer struct {
	g        games.Game
	ev       *games.Evaluator
	w        []float64 // replaced, never changed in place: a running search keeps its slice
	tableMiB int
	s        *engine.Searcher
	pos      games.Position
	limits   engine.Limits // for protocols whose commands give no limit
	out      *lineWriter

	cancel context.CancelFunc
	done   chan struct{}
	held   bool // the search in flight waits for stop
}

func newEnginePlayer(g games.Game, ev *games.Evaluator, w []float64, tableMiB int, lim engine.Limits, out io.Writer) (*enginePlayer, error) {
	s, err := engine.New(engine.Options{TableMiB: tableMiB})
	if err != nil {
		return nil, err
	}
	return &enginePlayer{g: g, ev: ev, w: w, tableMiB: tableMiB, s: s, pos: g.Start(), limits: lim, out: &lineWriter{w: out}}, nil
}

// thought is what a finished search reports: the position it searched, its
// result (with the move of the last completed iteration when it was
// stopped) and the time it took.
type thought struct {
	pos     games.Position
	res     engine.Result
	elapsed time.Duration
}

// settle prepares for a command that changes the position or the
// settings: a search with limits is waited for (commands a GUI sent while it
// ran are taken in order), and an error is returned while a search waits
// for stop.
func (e *enginePlayer) settle() error {
	if e.done == nil {
		return nil
	}
	if e.held {
		select {
		case <-e.done:
		default:
			return errors.New("the engine is searching until stop; send stop first")
		}
	}
	e.wait()
	return nil
}

// searchable returns a copy of the position to search, or why there is
// nothing to search. A game drawn by rule with moves left (a threefold
// repetition a GUI did not claim) is searched from its position without the
// history.
func (e *enginePlayer) searchable() (games.Position, error) {
	p := e.pos.Clone()
	moves, outcome := p.Moves(nil)
	if outcome == games.Ongoing && len(moves) > 0 {
		return p, nil
	}
	if q, err := e.g.ParsePosition(p.String()); err == nil {
		if ms, o := q.Moves(nil); o == games.Ongoing && len(ms) > 0 {
			return q, nil
		}
	}
	return nil, fmt.Errorf("the game is over (%s)", outcome)
}

// think starts a search of p on its own goroutine within lim and, when
// budget is positive, within that much time; report gets the result. With
// hold, the result waits for stop even when the search ends sooner (UCI's
// go infinite). The previous search must have ended.
func (e *enginePlayer) think(ctx context.Context, p games.Position, lim engine.Limits, budget time.Duration, hold bool, report func(thought)) {
	e.stop()
	start := time.Now()
	var sctx context.Context
	var cancel context.CancelFunc
	if budget > 0 {
		sctx, cancel = context.WithTimeout(ctx, budget)
	} else {
		sctx, cancel = context.WithCancel(ctx)
	}
	done := make(chan struct{})
	e.cancel, e.done, e.held = cancel, done, hold
	s, ev, w := e.s, e.ev, e.w
	go func() {
		defer close(done)
		defer cancel()
		res, _ := s.Search(sctx, p, ev, w, lim) // stopped: the last completed iteration's move
		if hold {
			<-sctx.Done()
		}
		report(thought{pos: p, res: res, elapsed: time.Since(start)})
	}()
}

// stop ends the search in flight, if any, and waits for its report.
func (e *enginePlayer) stop() {
	if e.cancel != nil {
		e.cancel()
		<-e.done
		e.cancel, e.done = nil, nil
	}
}

// wait waits for the search in flight to end by itself.
func (e *enginePlayer) wait() {
	if e.done != nil {
		<-e.done
		e.cancel, e.done = nil, nil
	}
}

// newSearcher replaces the searcher with one whose table has mib MiB.
func (e *enginePlayer) newSearcher(mib int) error {
	if err := checkHash(mib); err != nil {
		var u usageError
		if errors.As(err, &u) {
			return u.err
		}
		return err
	}
	s, err := engine.New(engine.Options{TableMiB: mib})
	if err != nil {
		return err
	}
	e.s, e.tableMiB = s, mib
	return nil
}

// clockOverhead is kept back from every move's time for the process's
// reading, writing, the operating system's scheduling (a loaded machine
// can hold a process back for tens of milliseconds) and the search's check
// of its deadline.
const clockOverhead = 10 * time.Millisecond

// moveBudget is the time for one move with left on the clock, inc added
// after each move and movesToGo moves to the next time control (0: sudden
// death, planned as 30 more moves). It spends half of the increment and
// never plans more than a third of what is left, so that at 1 s + 10 ms
// per move the clock settles near 30 x (inc/2 + clockOverhead - o) =
// 300 ms for an overhead o of 5 ms per move: a reserve against a slow
// moment, where spending three quarters of the increment left 75 ms.
func moveBudget(left, inc time.Duration, movesToGo int) time.Duration {
	if left <= 0 {
		return time.Millisecond
	}
	if movesToGo <= 0 || movesToGo > 30 {
		movesToGo = 30
	}
	b := left/time.Duration(movesToGo) + inc/2
	b = min(b, left/3) - clockOverhead
	return max(b, time.Millisecond)
}

// formatPV writes moves in the game's notation, or with write when given.
func formatPV(p games.Position, moves []games.Move, write func(games.Position, games.Move) string) []string {
	out := make([]string, 0, len(moves))
	n := 0
	for _, m := range moves {
		out = append(out, write(p, m))
		p.Play(m)
		n++
	}
	for ; n > 0; n-- {
		p.Undo()
	}
	return out
}
