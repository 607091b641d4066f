// Command testengine is a misbehaving UCI chess engine for the tests of
// external players: it plays the first legal move, and with its flags
// exits, stops answering or plays an illegal move at a given ply of the
// game, ignores quit, floods its stderr or stdout, starts children that
// try to outlive it, or logs the commands it receives. With -xboard it
// speaks xboard (CECP) in the dialect its words give (v1, noping,
// nosetboard, san, usermove, oldmoves, donezero, noreuse, grumpy), and may also
// resign, claim a result, refuse a legal move or offer draws.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/chess"
)

func main() {
	crashAt := flag.Int("crash-at", 0, "exit when first asked for a move at or after this ply (counted from 1)")
	stallAt := flag.Int("stall-at", 0, "stop answering from this ply on")
	illegalAt := flag.Int("illegal-at", 0, "answer an illegal move from this ply on")
	ignoreQuit := flag.Bool("ignore-quit", false, "do not exit on quit")
	child := flag.Bool("child", false, "start a child that sleeps, to check process groups are killed whole")
	escape := flag.Bool("escape", false, "start a child that sleeps in a session of its own, out of the engine's process group")
	stderrLines := flag.Int("stderr-lines", 0, "write this many bytes to stderr, in lines of 100, before each move")
	stderrBytes := flag.Int("stderr-bytes", 0, "write this many bytes to stderr, without a newline, before each move")
	longLineAt := flag.Int("long-line-at", 0, "from this ply on, answer with a line of 50 MB before the move")
	logPath := flag.String("log", "", "append every command received to this file")
	xboardWords := flag.String("xboard", "", "speak xboard in this dialect: comma-separated words (v2 for the plain one)")
	resignAt := flag.Int("resign-at", 0, "xboard: resign from this ply on")
	claimAt := flag.Int("claim-at", 0, "xboard: claim -claim's result from this ply on (a draw claim comes with a move)")
	claim := flag.String("claim", "1-0", "xboard: the result -claim-at claims")
	refuseAt := flag.Int("refuse-at", 0, "xboard: answer Illegal move to the moves told from this ply on")
	offerDraw := flag.Bool("offer-draw", false, "xboard: offer a draw before each move")
	flag.Parse()
	if *child {
		startSleeper(false)
	}
	if *escape {
		startSleeper(true)
	}
	var log *os.File
	if *logPath != "" {
		var err error
		if log, err = os.OpenFile(*logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644); err != nil {
			panic(err)
		}
	}
	in := bufio.NewScanner(os.Stdin)
	if *xboardWords != "" {
		bad := misbehaviour{crashAt: *crashAt, stallAt: *stallAt, illegalAt: *illegalAt, resignAt: *resignAt,
			claimAt: *claimAt, claim: *claim, refuseAt: *refuseAt, offerDraw: *offerDraw}
		playXboard(in, log, parseDialect(*xboardWords), bad, *ignoreQuit)
		if *ignoreQuit {
			time.Sleep(time.Hour)
		}
		return
	}
	var pos *chess.Position
	for in.Scan() {
		if log != nil {
			fmt.Fprintln(log, in.Text())
		}
		f := strings.Fields(in.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			fmt.Println("id name testengine")
			fmt.Println("option name Hash type spin default 16 min 1 max 64")
			fmt.Println("uciok")
		case "isready":
			fmt.Println("readyok")
		case "position":
			pos = position(f[1:])
		case "go":
			ply := pos.Ply() + 1
			switch {
			case at(ply, *crashAt):
				fmt.Fprintln(os.Stderr, "testengine: crashing on purpose")
				os.Exit(3)
			case at(ply, *stallAt):
				time.Sleep(time.Hour)
			case at(ply, *illegalAt):
				fmt.Println("bestmove a1a1")
				continue
			case at(ply, *longLineAt):
				os.Stdout.Write(filled(50<<20, 0))
				fmt.Println()
			}
			if *stderrLines > 0 {
				os.Stderr.Write(filled(*stderrLines, 100))
			}
			if *stderrBytes > 0 {
				os.Stderr.Write(filled(*stderrBytes, 0))
			}
			moves, _ := pos.Moves(nil)
			fmt.Println("info depth 1 score cp 0 nodes 1")
			fmt.Println("bestmove " + pos.UCI(moves[0]))
		case "quit":
			if !*ignoreQuit {
				return
			}
		}
	}
	if *ignoreQuit {
		time.Sleep(time.Hour)
	}
}

// filled is n bytes of 'x', with a newline ending every line of lineLen
// bytes when lineLen > 0.
func filled(n, lineLen int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'x'
		if lineLen > 0 && i%lineLen == lineLen-1 {
			b[i] = '\n'
		}
	}
	return b
}

// at reports whether a misbehaviour set for ply n (0: never) is due.
func at(ply, n int) bool { return n > 0 && ply >= n }

// position reads "startpos|fen ... [moves ...]"; errors panic, as the
// referee is trusted here.
func position(args []string) *chess.Position {
	var p *chess.Position
	i := 1
	if args[0] == "startpos" {
		p = chess.Start()
	} else {
		for i < len(args) && args[i] != "moves" {
			i++
		}
		q, err := chess.Game().ParsePosition(strings.Join(args[1:i], " "))
		if err != nil {
			panic(err)
		}
		p = q.(*chess.Position)
	}
	if i < len(args) && args[i] == "moves" {
		for _, s := range args[i+1:] {
			m, err := p.ParseMove(s)
			if err != nil {
				panic(err)
			}
			p.Play(m)
		}
	}
	return p
}

var _ games.Position = (*chess.Position)(nil)
