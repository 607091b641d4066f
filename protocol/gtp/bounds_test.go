package gtp

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestServeBounds: every number GTP's commands take is bounded: huge or
// negative times, NaN and Inf are refused with "? syntax error: ..." that
// gives the bounds, and the clock stays as it was.
func TestServeBounds(t *testing.T) {
	bad := []string{
		"time_settings 1000000000 0 0", "time_settings 86401 0 0", "time_settings 0 86401 1", "time_settings 10 5 1001",
		"time_settings -1 0 0", "time_settings NaN 0 0", "time_settings 1.5 0 0",
		"time_left b NaN 0", "time_left w +Inf 0", "time_left b -Inf 0", "time_left b -1 0", "time_left b 86400.5 0",
		"time_left b 1e300 0", "time_left w 10 -1", "time_left w 10 1001", "time_left w 10 NaN",
		"komi NaN", "komi 1e9", "komi -Inf",
	}
	got := session(t, strings.Join(append(bad, "time_settings 86400 86400 1000", "time_left b 86400 1000", "komi 6.5", "time_left b 0.5 1", "genmove b"), "\n"))
	if len(got) != len(bad)+5 {
		t.Fatalf("%d responses, want %d: %+v", len(got), len(bad)+5, got)
	}
	for i, c := range bad {
		if r := got[i]; !r.Error || !strings.HasPrefix(r.Text, "syntax error: ") || !strings.Contains(r.Text, " from ") {
			t.Errorf("%s: %+v, want a syntax error giving the bounds", c, r)
		}
	}
	for i, r := range got[len(bad):] {
		if r.Error {
			t.Errorf("response %d: %+v", len(bad)+i+1, r)
		}
	}
}

// TestClock: what time_settings and time_left make of the clock: main
// time, Canadian byo-yomi entered at once when there is no main time, no
// limit for byo-yomi with no stones, and time_left's stones.
func TestClock(t *testing.T) {
	s := &server{}
	ctx := context.Background()
	for _, c := range []struct {
		command string
		timed   bool
		left    time.Duration
		stones  int
	}{
		{"time_settings 300 0 0", true, 300 * time.Second, 0},
		{"time_settings 0 30 5", true, 30 * time.Second, 5},
		{"time_settings 0 30 0", false, 0, 0},
		{"time_settings 0 0 0", false, 0, 0},
		{"time_left black 12.5 3", true, 12500 * time.Millisecond, 3},
		{"time_left b 7", true, 7 * time.Second, 0},
	} {
		cmd, err := ParseCommand(c.command)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.answerClock(ctx, cmd); err != nil {
			t.Fatalf("%s: %v", c.command, err)
		}
		if s.timed != c.timed || s.left[0] != c.left || s.stones[0] != c.stones {
			t.Errorf("%s: timed %v, black's %v for %d stones; want %v, %v, %d", c.command, s.timed, s.left[0], s.stones[0], c.timed, c.left, c.stones)
		}
	}
}

// answerClock runs a clock command on s.
func (s *server) answerClock(ctx context.Context, c Command) (string, error) {
	if c.Name == "time_settings" {
		return s.timeSettings(ctx, c.Args)
	}
	return s.timeLeft(ctx, c.Args)
}
