package cluster

import (
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/tournament"
)

// TestJobRefusesClockAndSelectivePlayers: a player on a clock or with the
// selective search is not sent to workers, whose wire carries neither.
func TestJobRefusesClockAndSelectivePlayers(t *testing.T) {
	tc := tournament.TimeControl{Base: time.Second}
	for _, change := range []func(*tournament.Player){
		func(p *tournament.Player) { p.Timing = tournament.Timing{TC: &tc} },
		func(p *tournament.Player) { p.Timing = tournament.Timing{MoveTime: time.Second} },
		func(p *tournament.Player) { p.Search = tournament.Search{Selective: true} },
	} {
		spec := matchSpecs(t, 1)[0]
		change(&spec.Second)
		if _, err := NewJob(spec, 2); err == nil || !strings.Contains(err.Error(), "local pool") {
			t.Errorf("player %+v: %v, want a refusal", spec.Second, err)
		}
	}
	if _, err := NewJob(matchSpecs(t, 1)[0], 2); err != nil {
		t.Errorf("an exact player at a depth: %v", err)
	}
}
