package uci

import (
	"strings"
	"testing"
)

// FuzzCommands feeds any line to the parsers of both sides: none may panic,
// and what a parser accepts must be written back to a line it reads again
// the same way.
func FuzzCommands(f *testing.F) {
	for _, s := range []string{
		"position startpos moves e2e4 e7e5",
		"position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2",
		"go wtime 1000 btime 1000 winc 10 binc 10 movestogo 3",
		"go infinite searchmoves e2e4",
		"setoption name Clear Hash",
		"setoption name pawn value 120",
		"option name Hash type spin default 16 min 1 max 1024",
		"info depth 3 score mate -2 lowerbound pv e2e4",
		"bestmove e2e4 ponder e7e5",
		"go depth",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := ParseCommand(line)
		if err != nil {
			return
		}
		if p, err := ParsePosition(c.Args); err == nil {
			again, err := ParsePosition(strings.Fields(p.String())[1:])
			if err != nil || again.String() != p.String() {
				t.Fatalf("position %q -> %q -> %v", line, p.String(), err)
			}
		}
		if g, err := ParseGo(c.Args); err == nil {
			again, err := ParseGo(strings.Fields(g.String())[1:])
			if err != nil || again.String() != g.String() {
				t.Fatalf("go %q -> %q -> %v", line, g.String(), err)
			}
		}
		if o, err := ParseSetOption(c.Args); err == nil {
			again, err := ParseSetOption(strings.Fields(o.String())[1:])
			if err != nil || again != o {
				t.Fatalf("setoption %q -> %q -> %+v %v", line, o.String(), again, err)
			}
		}
		if o, err := ParseOption(c.Args); err == nil {
			_ = o.String()
		}
		if in, err := ParseInfo(c.Args); err == nil {
			_ = in.Format()
		}
		if m, err := ParseBestMove(c.Args); err == nil {
			_ = m.String()
		}
	})
}
