// Command testengine is a misbehaving UCI chess engine for the tests of
// external players: it plays the first legal move, and with its flags
// exits, stops answering or plays an illegal move at a given ply of the
// game, or ignores quit.
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
	flag.Parse()
	if *child {
		startSleeper()
	}
	in := bufio.NewScanner(os.Stdin)
	var pos *chess.Position
	for in.Scan() {
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
