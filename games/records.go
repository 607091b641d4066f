package games

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// GameRecord is one game read from a record file (PGN, PDN, GGF): its tags,
// its start position in the game's position notation and its moves in the
// game's move notation, in the order played. The moves are as written:
// Replay checks them.
type GameRecord struct {
	Tags  [][2]string
	Start string
	Moves []string
}

// RecordReader is a Game whose game records (the format its Recorder
// writes) can be read back: ReadGames returns every game of data, or an
// error naming the game and what is wrong.
type RecordReader interface {
	ReadGames(data []byte) ([]GameRecord, error)
}

// The tags a tournament gives a Recorder, whatever the game: a Recorder
// writes them under its format's names (White and Black in PGN, Black and
// White the other way round in PDN, PB and PW in GGF).
const (
	TagFirst  = "First"  // the first player's name
	TagSecond = "Second" // the second player's name
)

// RenameTags returns tags with the names in names replaced (First by
// White, say); a name mapped to "" is dropped.
func RenameTags(tags [][2]string, names map[string]string) [][2]string {
	out := make([][2]string, 0, len(tags))
	for _, t := range tags {
		if n, ok := names[t[0]]; ok {
			if n == "" {
				continue
			}
			t[0] = n
		}
		out = append(out, t)
	}
	return out
}

// Tag returns the value of the record's tag name ("" if absent).
func (r GameRecord) Tag(name string) string {
	for _, t := range r.Tags {
		if t[0] == name {
			return t[1]
		}
	}
	return ""
}

// Replay plays the record's moves from its start position in g, checking
// each, and returns the position reached with the moves played. A move
// after the end of the game is an error.
func (r GameRecord) Replay(g Game) (Position, []Move, error) {
	p, err := g.ParsePosition(r.Start)
	if err != nil {
		return nil, nil, err
	}
	var played, buf []Move
	for i, text := range r.Moves {
		moves, outcome := p.Moves(buf)
		buf = moves
		if outcome != Ongoing {
			return nil, nil, fmt.Errorf("move %d (%s): the game is over (%s)", i+1, text, outcome)
		}
		m, err := p.ParseMove(text)
		if err != nil {
			return nil, nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		p.Play(m)
		played = append(played, m)
	}
	return p, played, nil
}

// MaxRecordGames bounds the games read from one record file.
const MaxRecordGames = 1_000_000

// ErrNoGames is returned for a record file that holds no game.
var ErrNoGames = errors.New("games: no game in the record")

// ReadTagged reads the games of a PGN-like file (ParseTagged) as records:
// each game's tags and moves, from its FEN tag or else from start.
func ReadTagged(data []byte, resultTokens []string, start string) ([]GameRecord, error) {
	tagged, err := ParseTagged(string(data), resultTokens)
	if err != nil {
		return nil, err
	}
	out := make([]GameRecord, 0, len(tagged))
	for _, t := range tagged {
		r := GameRecord{Tags: t.Tags, Start: start, Moves: t.Moves}
		if fen := r.Tag("FEN"); fen != "" {
			r.Start = fen
		}
		out = append(out, r)
	}
	return out, nil
}

// TaggedGame is one game of a PGN-like record: tag pairs, then movetext.
type TaggedGame struct {
	Tags   [][2]string
	Moves  []string // move tokens, without move numbers, comments or variations
	Result string   // the result token ending the movetext ("" if missing)
}

// ParseTagged reads the games of a PGN-like file (PGN for chess, PDN for
// draughts): each game is tag pairs [Name "value"] then movetext, where
// move numbers ("12." and "12..."), comments ({...} and ; to the end of
// the line), NAGs ($3) and variations ((...)) are skipped, and a result
// token (1-0, 0-1, 1/2-1/2, 2-0, 0-2, 1-1, *) ends the game. resultTokens
// lists the results the format knows.
func ParseTagged(data string, resultTokens []string) ([]TaggedGame, error) {
	var out []TaggedGame
	var cur TaggedGame
	inMoves := false
	flush := func() {
		if len(cur.Tags) > 0 || len(cur.Moves) > 0 || cur.Result != "" {
			out = append(out, cur)
		}
		cur, inMoves = TaggedGame{}, false
	}
	line := 1
	for i := 0; i < len(data); {
		c := data[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '[':
			if inMoves {
				flush() // a new game's tags without a result before them
			}
			end := strings.IndexByte(data[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("games: line %d: a tag opens with [ and does not close", line)
			}
			body := strings.TrimSpace(data[i+1 : i+end])
			name, value, ok := strings.Cut(body, " ")
			value = strings.TrimSpace(value)
			if !ok || len(value) < 2 || value[0] != '"' || value[len(value)-1] != '"' {
				return nil, fmt.Errorf("games: line %d: tag %q: want [Name \"value\"]", line, clipText(body))
			}
			cur.Tags = append(cur.Tags, [2]string{name, strings.ReplaceAll(value[1:len(value)-1], `\"`, `"`)})
			line += strings.Count(data[i:i+end], "\n")
			i += end + 1
		case c == '{':
			end := strings.IndexByte(data[i:], '}')
			if end < 0 {
				return nil, fmt.Errorf("games: line %d: a comment opens with { and does not close", line)
			}
			line += strings.Count(data[i:i+end], "\n")
			i += end + 1
		case c == ';':
			end := strings.IndexByte(data[i:], '\n')
			if end < 0 {
				end = len(data) - i
			}
			i += end
		case c == '(':
			depth := 0
			j := i
			for ; j < len(data); j++ {
				if data[j] == '(' {
					depth++
				} else if data[j] == ')' {
					depth--
					if depth == 0 {
						break
					}
				} else if data[j] == '\n' {
					line++
				}
			}
			if j >= len(data) {
				return nil, fmt.Errorf("games: line %d: a variation opens with ( and does not close", line)
			}
			i = j + 1
		default:
			j := i
			for j < len(data) && !strings.ContainsRune(" \t\r\n[{;(", rune(data[j])) {
				j++
			}
			tok := data[i:j]
			i = j
			inMoves = true
			switch {
			case isResult(tok, resultTokens):
				cur.Result = tok
				flush()
			case tok[0] == '$':
			default:
				// Move numbers: "12." or "12...", alone or glued to the move.
				k := 0
				for k < len(tok) && tok[k] >= '0' && tok[k] <= '9' {
					k++
				}
				if k > 0 && k < len(tok) && tok[k] == '.' {
					tok = strings.TrimLeft(tok[k:], ".")
				}
				if tok != "" {
					cur.Moves = append(cur.Moves, tok)
				}
			}
		}
		if len(out) > MaxRecordGames {
			return nil, fmt.Errorf("games: more than %d games in one record", MaxRecordGames)
		}
	}
	flush()
	if len(out) == 0 {
		return nil, ErrNoGames
	}
	return out, nil
}

func isResult(tok string, results []string) bool {
	for _, r := range results {
		if tok == r {
			return true
		}
	}
	return false
}

func clipText(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// sevenTags are PGN's Seven Tag Roster, in the order the standard writes
// them, Result last.
var sevenTags = []string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// WriteTags writes PGN-style tag pairs (PGN, PDN): the Seven Tag Roster
// first, in its order ("?" or "????.??.??" for a roster tag not given;
// Result is result),
// then the other tags in the order given. Values are quoted as PGN says:
// backslash and quote escaped, control characters dropped.
func WriteTags(b *strings.Builder, tags [][2]string, result string) {
	value := func(name string) string {
		for _, t := range tags {
			if t[0] == name {
				return t[1]
			}
		}
		if name == "Date" {
			return "????.??.??"
		}
		return "?"
	}
	for _, name := range sevenTags {
		v := value(name)
		if name == "Result" {
			v = result
		}
		writeTag(b, name, v)
	}
	for _, t := range tags {
		if !slices.Contains(sevenTags, t[0]) {
			writeTag(b, t[0], t[1])
		}
	}
}

func writeTag(b *strings.Builder, name, value string) {
	value = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, value)
	value = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(value)
	fmt.Fprintf(b, "[%s \"%s\"]\n", name, value)
}

// Comment writes a movetext comment, {text}, with the braces the text
// holds taken out (a PGN comment cannot hold "}").
func (t *MoveText) Comment(text string) {
	t.Emit("{" + strings.NewReplacer("{", "(", "}", ")", "\n", " ").Replace(text) + "}")
}

// MoveText writes PGN-style movetext (PGN, PDN): tokens separated by
// spaces, lines wrapped before 80 columns.
type MoveText struct {
	B    *strings.Builder
	line int
}

// Emit writes one token (a move number, a move, a result).
func (t *MoveText) Emit(tok string) {
	if t.line+len(tok)+1 > 79 {
		t.B.WriteByte('\n')
		t.line = 0
	} else if t.line > 0 {
		t.B.WriteByte(' ')
		t.line++
	}
	t.B.WriteString(tok)
	t.line += len(tok)
}
