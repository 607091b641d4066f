package tuning

import (
	"context"
	"errors"
	"testing"

	"github.com/gametune/gametune/cluster"
	"github.com/gametune/gametune/tournament/external"
)

// TestOpenGamesLocal: without a broker the games are played on a local
// pool of the workers asked for, which takes external engines; a token
// file without a broker is a setting that cannot work.
func TestOpenGamesLocal(t *testing.T) {
	ctx := context.Background()
	_, err := OpenGames(ctx, Place{Cluster: cluster.Options{TokenFile: "/t"}, Workers: 1})
	var settings *cluster.SettingsError
	if !errors.As(err, &settings) {
		t.Errorf("--token-file alone: %v, want a *cluster.SettingsError", err)
	}
	g, err := OpenGames(ctx, Place{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if g.Workers() != 2 {
		t.Errorf("%d workers, want 2", g.Workers())
	}
	opened := false
	if err := g.UseEngines(func() (*external.Log, error) { opened = true; return external.OpenLog("") }); err != nil || !opened {
		t.Errorf("UseEngines on the local pool: %v (log opened: %v)", err, opened)
	}
	g.Close()
}
