package gtp

import (
	"bufio"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestParseCommand(t *testing.T) {
	tests := []struct {
		line string
		want Command
		err  bool
	}{
		{"genmove black", Command{Name: "genmove", Args: []string{"black"}}, false},
		{"12 play\twhite d3 # a comment", Command{ID: 12, HasID: true, Name: "play", Args: []string{"white", "d3"}}, false},
		{"  name\r", Command{Name: "name", Args: []string{}}, false},
		{"# only a comment", Command{}, true},
		{"7", Command{}, true},
		{"99999999999999999999999 name", Command{}, true},
	}
	for _, tt := range tests {
		got, err := ParseCommand(tt.line)
		if (err != nil) != tt.err {
			t.Errorf("%q: error %v", tt.line, err)
			continue
		}
		if err == nil && (got.Name != tt.want.Name || got.ID != tt.want.ID || got.HasID != tt.want.HasID || strings.Join(got.Args, " ") != strings.Join(tt.want.Args, " ")) {
			t.Errorf("%q: got %+v, want %+v", tt.line, got, tt.want)
		}
	}
	if _, err := ParseCommand(" # x"); !errors.Is(err, ErrEmpty) {
		t.Errorf("comment line: %v, want ErrEmpty", err)
	}
}

func TestResponses(t *testing.T) {
	c := Command{ID: 3, HasID: true, Name: "genmove"}
	if got := Success(c, "D3").String(); got != "=3 D3\n\n" {
		t.Errorf("success: %q", got)
	}
	if got := Failure(Command{Name: "x"}, "unknown command").String(); got != "? unknown command\n\n" {
		t.Errorf("failure: %q", got)
	}
	if got := Success(Command{}, "").String(); got != "=\n\n" {
		t.Errorf("empty success: %q", got)
	}
	if got := Success(Command{}, "a\n\nb\n").String(); got != "= a\nb\n\n" {
		t.Errorf("lines: %q", got)
	}
	// What gtp-rhino writes, read back as a controller reads it.
	in := bufio.NewReader(strings.NewReader("= 2\n\n=1 GTP GRhino\n\n? syntax error\n\n= Next move: Black\n    a b c\n  1 . . .\n\n= E6"))
	want := []Response{{Text: "2"}, {ID: 1, HasID: true, Text: "GTP GRhino"}, {Error: true, Text: "syntax error"},
		{Text: "Next move: Black\n    a b c\n  1 . . ."}, {Text: "E6"}}
	for _, w := range want {
		got, err := ReadResponse(in)
		if err != nil || !reflect.DeepEqual(got, w) {
			t.Fatalf("got %+v, %v; want %+v", got, err, w)
		}
	}
	if _, err := ReadResponse(in); err != io.EOF {
		t.Fatalf("at the end: %v, want EOF", err)
	}
	if _, err := ReadResponse(bufio.NewReader(strings.NewReader("hello\n\n"))); err == nil {
		t.Fatal("a response without = or ?: no error")
	}
}

func TestColor(t *testing.T) {
	for s, black := range map[string]bool{"b": true, "BLACK": true, "w": false, "White": false} {
		got, err := Color(s)
		if err != nil || got != black {
			t.Errorf("%q: %v %v", s, got, err)
		}
	}
	if _, err := Color("red"); err == nil {
		t.Error("red: no error")
	}
}

// FuzzCommand: no line makes the parsers panic, and a parsed command and a
// response written for it read back the same.
func FuzzCommand(f *testing.F) {
	for _, s := range []string{"1 genmove black", "play white pass", "boardsize 8 # x", "\x00\t7 name", "= 4\nmore", "?3 bad"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if c, err := ParseCommand(line); err == nil {
			again, err := ParseCommand(c.String())
			if err != nil || again.String() != c.String() {
				t.Fatalf("%q -> %q -> %q %v", line, c.String(), again.String(), err)
			}
			r := Success(c, Clean(line))
			back, err := ReadResponse(bufio.NewReader(strings.NewReader(r.String())))
			if err != nil || back.ID != c.ID || back.HasID != c.HasID || back.Error {
				t.Fatalf("response %q -> %+v %v", r.String(), back, err)
			}
		}
		_, _ = ParseResponse(line)
		_, _ = ReadResponse(bufio.NewReader(strings.NewReader(line)))
	})
}
