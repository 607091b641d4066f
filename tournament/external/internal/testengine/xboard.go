package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gametune/gametune/games/chess"
)

// dialect is how the xboard test engine speaks, from -xboard's words.
type dialect struct {
	v1         bool // answers no protover: a version 1 engine
	noPing     bool
	noSetboard bool // edit only
	san        bool // wants and writes SAN
	usermove   bool // wants usermove
	oldMoves   bool // writes "N. ... MOVE"
	doneZero   bool // done=0 first, the features after
	noReuse    bool
	grumpy     bool // takes post and easy for moves: "Illegal move: post"
}

func parseDialect(words string) dialect {
	var d dialect
	for _, w := range strings.Split(words, ",") {
		switch w {
		case "v1":
			d.v1 = true
		case "noping":
			d.noPing = true
		case "nosetboard":
			d.noSetboard = true
		case "san":
			d.san = true
		case "usermove":
			d.usermove = true
		case "oldmoves":
			d.oldMoves = true
		case "donezero":
			d.doneZero = true
		case "noreuse":
			d.noReuse = true
		case "grumpy":
			d.grumpy = true
		}
	}
	return d
}

// misbehaviour is what the xboard test engine does wrong, and when.
type misbehaviour struct {
	crashAt, stallAt, illegalAt, resignAt, claimAt, refuseAt int
	claim                                                    string
	offerDraw                                                bool
}

// xboardEngine is the state of the xboard test engine: it plays the first
// legal move of the side it plays.
type xboardEngine struct {
	d       dialect
	bad     misbehaviour
	pos     *chess.Position
	force   bool
	side    int // 0 white, 1 black: the side it plays out of force mode
	post    bool
	editing *editBoard
}

// editBoard is a position being set up in edit mode.
type editBoard struct {
	pieces map[string]byte // square -> FEN letter
	black  bool            // the colour of the pieces placed
}

func playXboard(in *bufio.Scanner, log *os.File, d dialect, bad misbehaviour, ignoreQuit bool) {
	x := &xboardEngine{d: d, bad: bad, pos: chess.Start(), side: 1}
	for in.Scan() {
		if log != nil {
			fmt.Fprintln(log, in.Text())
		}
		if !x.command(in.Text()) && !ignoreQuit {
			return
		}
	}
}

// command runs one line; false after quit.
func (x *xboardEngine) command(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return true
	}
	if x.editing != nil {
		x.edit(f[0])
		return true
	}
	switch f[0] {
	case "quit":
		return false
	case "protover":
		x.features()
	case "new":
		x.pos, x.force, x.side = chess.Start(), false, 1
	case "force":
		x.force = true
	case "go":
		x.force, x.side = false, x.turn()
		x.move()
	case "ping":
		if !x.d.noPing {
			fmt.Println("pong " + f[1])
		}
	case "setboard":
		p, err := chess.Game().ParsePosition(strings.Join(f[1:], " "))
		if err != nil {
			fmt.Println("tellusererror Illegal position")
			return true
		}
		x.pos = p.(*chess.Position)
	case "edit":
		x.editing = &editBoard{pieces: map[string]byte{}}
	case "post", "easy":
		if x.d.grumpy {
			fmt.Println("Illegal move: " + f[0])
			return true
		}
		x.post = x.post || f[0] == "post"
	case "usermove":
		x.told(f[1])
	case "xboard", "accepted", "rejected", "level", "st", "sd", "nps", "time", "otim", "hard", "nopost", "result", "memory", "cores", "option":
	default:
		if x.d.usermove {
			fmt.Println("Error (unknown command): " + line)
			return true
		}
		x.told(f[0])
	}
	return true
}

func (x *xboardEngine) turn() int {
	if strings.Fields(x.pos.String())[1] == "w" {
		return 0
	}
	return 1
}

// features answers protover 2 as the dialect says.
func (x *xboardEngine) features() {
	if x.d.v1 {
		return
	}
	flag := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	if x.d.doneZero {
		fmt.Println("feature done=0")
		time.Sleep(2500 * time.Millisecond) // longer than the tests give a version 1 engine
	}
	fmt.Printf("feature myname=\"testengine xboard\" ping=%d setboard=%d san=%d usermove=%d reuse=%d sigint=0 sigterm=0 colors=0\n",
		flag(!x.d.noPing), flag(!x.d.noSetboard), flag(x.d.san), flag(x.d.usermove), flag(!x.d.noReuse))
	fmt.Println(`feature option="Skill -spin 5 0 10" option="Fast -check 0" memory=1 egt="syzygy" frobnicate=1`)
	fmt.Println("feature done=1")
}

// told plays the GUI's move; out of force mode it then moves if on move.
func (x *xboardEngine) told(s string) {
	if at(x.pos.Ply()+1, x.bad.refuseAt) {
		fmt.Println("Illegal move: " + s)
		return
	}
	m, err := x.pos.ParseMove(s)
	if err != nil {
		fmt.Printf("Illegal move (%v): %s\n", err, s)
		return
	}
	x.pos.Play(m)
	if !x.force && x.turn() == x.side {
		x.move()
	}
}

// move plays the first legal move, or misbehaves as told.
func (x *xboardEngine) move() {
	ply := x.pos.Ply() + 1
	moves, _ := x.pos.Moves(nil)
	switch {
	case len(moves) == 0:
		return
	case at(ply, x.bad.crashAt):
		fmt.Fprintln(os.Stderr, "testengine: crashing on purpose")
		os.Exit(3)
	case at(ply, x.bad.stallAt):
		time.Sleep(time.Hour)
	case at(ply, x.bad.resignAt):
		fmt.Println("resign")
		return
	case at(ply, x.bad.claimAt):
		fmt.Println(x.bad.claim + " {testengine claims}")
		if x.bad.claim != "1/2-1/2" {
			return
		}
	case at(ply, x.bad.illegalAt):
		fmt.Println("move a1a1")
		return
	}
	if x.bad.offerDraw {
		fmt.Println("offer draw")
	}
	m := moves[0]
	text := x.pos.UCI(m)
	if x.d.san {
		text = x.pos.FormatMove(m)
	}
	if x.post {
		fmt.Printf("1 %d 0 1 %s\n", -ply, text)
	}
	if x.d.oldMoves {
		fmt.Printf("%d. ... %s\n", (ply+1)/2, text)
	} else {
		fmt.Println("move " + text)
	}
	x.pos.Play(m)
}

// edit takes one command of edit mode.
func (x *xboardEngine) edit(c string) {
	e := x.editing
	switch {
	case c == "#":
		e.pieces = map[string]byte{}
	case c == "c":
		e.black = !e.black
	case c == ".":
		x.editing = nil
		x.pos = e.position(x.turn())
	case len(c) == 3:
		letter := c[0]
		if e.black {
			letter |= 0x20
		}
		e.pieces[c[1:]] = letter
	}
}

// position is the position of the pieces placed, side to move, castling
// where king and rook stand at home, as edit mode assumes.
func (e *editBoard) position(side int) *chess.Position {
	var b strings.Builder
	for rank := '8'; rank >= '1'; rank-- {
		empty := 0
		for file := 'a'; file <= 'h'; file++ {
			c, ok := e.pieces[string(file)+string(rank)]
			if !ok {
				empty++
				continue
			}
			if empty > 0 {
				fmt.Fprint(&b, empty)
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			fmt.Fprint(&b, empty)
		}
		if rank > '1' {
			b.WriteByte('/')
		}
	}
	castling := ""
	for _, c := range []struct{ flag, king, rook, k, r string }{
		{"K", "e1", "h1", "K", "R"}, {"Q", "e1", "a1", "K", "R"}, {"k", "e8", "h8", "k", "r"}, {"q", "e8", "a8", "k", "r"},
	} {
		if string(e.pieces[c.king]) == c.k && string(e.pieces[c.rook]) == c.r {
			castling += c.flag
		}
	}
	if castling == "" {
		castling = "-"
	}
	fen := fmt.Sprintf("%s %s %s - 0 1", b.String(), map[int]string{0: "w", 1: "b"}[side], castling)
	p, err := chess.Game().ParsePosition(fen)
	if err != nil {
		panic(err)
	}
	return p.(*chess.Position)
}
