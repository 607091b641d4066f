package xboard

import (
	"context"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/protocol/protocoltest"
)

// FuzzParseOutput feeds any line to the reader of an engine's output (the
// client's line parser): it never panics; a move is one word; a feature
// read (without a double quote in its value) is written back and read
// again the same; an option a GUI accepts
// is written back and read again the same; a thinking line written back
// reads the same.
func FuzzParseOutput(f *testing.F) {
	for _, s := range []string{
		"feature " + fairymaxFeatures, "feature " + phalanxFeatures, "feature " + hoichessFeatures, "feature " + fairymaxOption,
		"move e7e8q", "1. ... d7d5", "12... Nf6", "1. e2e4", " 6      3        4     104514 g8f6 b1c3 d7d5",
		"12& -100005 300 99 e2e4", "pong 7", "1/2-1/2 {Draw by repetition}", "resign", "offer draw",
		"Illegal move (king in check): e1e2", "Error (unknown command): usermove", "feature ping", "move",
		`feature option="Makruk rules -combo makruk /// *Cambodian /// Ai-wok"`, "999999999999999 1 1 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		o, err := ParseOutput(line)
		switch o.Kind {
		case MoveLine:
			if err != nil || o.Move == "" || strings.ContainsAny(o.Move, " \t") {
				t.Fatalf("%q: move %q, %v", line, o.Move, err)
			}
		case FeatureLine:
			for _, ft := range o.Features {
				back, err := ParseFeatures(ft.String())
				if !strings.Contains(ft.Value, `"`) && (err != nil || len(back) != 1 || back[0] != ft) {
					t.Fatalf("%q: feature %v written %q, read back %v", line, ft, ft.String(), back)
				}
				var fs Features
				if ft.Name == "option" && fs.Set(ft) {
					o := fs.Options[0]
					if again, err := ParseOption(o.String()); err != nil || !reflect.DeepEqual(again, o) {
						t.Fatalf("%q: option %+v written %q, read back %+v, %v", line, o, o.String(), again, err)
					}
				}
			}
		case ThinkingLine:
			back, err := ParseOutput(o.Thinking.String())
			if err != nil || back.Kind != ThinkingLine || back.Thinking != o.Thinking {
				t.Fatalf("%q: thinking %+v written %q, read back %+v, %v", line, o.Thinking, o.Thinking.String(), back, err)
			}
		}
	})
}

// FuzzParseLevel: a level read is written back and read again the same,
// to the second.
func FuzzParseLevel(f *testing.F) {
	for _, s := range []string{"40 5 0", "0 0:30 0.1", "0 2:05 12", "0 0.5 0", "1 1e6 1e9", "0 0:59.999 0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLevel(strings.Fields(s))
		if err != nil {
			return
		}
		back, err := ParseLevel(strings.Fields(strings.TrimPrefix(l.String(), "level ")))
		if err != nil || back.Moves != l.Moves || back.Base/1e9 != l.Base/1e9 {
			t.Fatalf("%q: %+v written %q, read back %+v, %v", s, l, l.String(), back, err)
		}
	})
}

// FuzzServe feeds any command sequence to Serve with a tiny default
// search: it must not panic, and must return within a second of the end
// of its context, whatever searches the input asked for.
func FuzzServe(f *testing.F) {
	g, err := all.Find("chess")
	if err != nil {
		f.Fatal(err)
	}
	ev := g.Evaluators()[0]
	protocoltest.FuzzServe(f, []string{
		"xboard\nprotover 2\nnew\nlevel 0 0:05 0\ntime 500\notim 500\nusermove e2e4\nping 1\nquit",
		"new\nforce\nsetboard 7k/8/8/8/8/8/8/K7 w - - 0 1\ngo\n?\nundo\nremove\nresult 1-0 {x}",
		"st 1000\ngo\n?\nforce\ngo\nnew\ngo\nsd 60\ngo\nplayother\ne7e5\nusermove O-O",
		"memory 100000\noption Move Overhead=5000\noption Clear Hash\nlevel 40 0:01 0\ntime -100\ngo\nping 2",
		"new\nsd 3\npost\ngo\nforce\nusermove e7e5\nusermove e7e8=Q\nvariant normal\nedit\n.",
	}, func(t *testing.T) protocoltest.ServeFunc {
		e, err := thinker.New(g, ev, ev.Defaults(), thinker.Options{TableMiB: 1, MaxTableMiB: 4, Limits: engine.Limits{Depth: 1}})
		if err != nil {
			t.Fatal(err)
		}
		return func(ctx context.Context, r io.Reader, w io.Writer) error { return Serve(ctx, r, w, e) }
	})
}

// TestServeEndOfInput: commands waiting behind a search run in order at
// the end of the input, and Serve returns once the search ends.
func TestServeEndOfInput(t *testing.T) {
	g, _ := all.Find("chess")
	ev := g.Evaluators()[0]
	e, err := thinker.New(g, ev, ev.Defaults(), thinker.Options{TableMiB: 1, Limits: engine.Limits{Depth: 1}})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := Serve(context.Background(), strings.NewReader("new\nsd 2\ngo\nping 9\n"), &out, e); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "move ") || lines[1] != "pong 9" {
		t.Errorf("output %q, want the move then pong 9", lines)
	}
}
