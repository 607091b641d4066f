package web

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/tournament/stats"
)

// TestVerificationShown: a verification recorded in a finished run (its
// ladder's best g4, verified held) reaches the open run page as a "ladder"
// event; then the runs list and /api/runs mark the best verified, and
// /api/runs/{id} and the run page give the verification.
func TestVerificationShown(t *testing.T) {
	root := t.TempDir()
	r := makeRun(t, root, "verified", 4, 4, 8, 1)
	if err := r.RecordLadder(fixtureLadder(4, 8, 300)); err != nil {
		t.Fatal(err)
	}
	r.SetStatus("done")
	ver := population.Verification{Best: "g4", BestGenome: fixtureGeneration(3, 8, 4).Genomes[0].ID, Reference: "defaults", ReferenceGenome: population.DefaultsID,
		Depth: 4, SPRT: stats.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}, MaxPairs: 400}
	for i := 0; ver.Status == stats.Continue; i++ {
		ver.AddPair(1, float64(i%2)/2) // 1.5 points of 2, then 2
	}
	ver.Played = 2 * ver.Pairs
	s, ts := newServer(t, root, Options{Poll: 50 * time.Millisecond})
	get(t, ts.URL+"/runs/verified")
	stream := openEvents(t, ts.URL+"/runs/verified/events")
	stream.next(t, 5*time.Second)
	if err := r.RecordVerification(ver); err != nil {
		t.Fatal(err)
	}
	if ev := stream.until(t, "ladder", 5*time.Second); ev.sum.Best == nil || ev.sum.Best.Verified != population.VerdictHeld {
		t.Errorf("the event after the verification names %+v", ev.sum.Best)
	}
	if runs, _ := s.Runs(); runs[0].Best == nil || runs[0].Best.Label != "g4" || runs[0].Best.Verified != population.VerdictHeld {
		t.Errorf("the runs list's best %+v", runs[0].Best)
	}
	var detail Detail
	_, body := get(t, ts.URL+"/api/runs/verified")
	if err := json.Unmarshal([]byte(body), &detail); err != nil {
		t.Fatal(err)
	}
	if v := detail.Verification; v == nil || v.Verdict != population.VerdictHeld || v.Pairs != ver.Pairs || v.Depth != 4 || v.Pentanomial != ver.Pentanomial ||
		v.Summary != ver.Summary() || detail.Best.Verified != population.VerdictHeld {
		t.Errorf("/api/runs/verified: %+v, best %+v", v, detail.Best)
	}
	_, page := get(t, ts.URL+"/runs/verified")
	if want := `<p id="verification">Verification at a deeper search: ` + strings.ReplaceAll(ver.Summary(), "+", "&#43;"); !strings.Contains(page, want) {
		t.Errorf("the run page lacks %q", want)
	}
	if _, list := get(t, ts.URL+"/"); !strings.Contains(list, "over the defaults; verified: held") {
		t.Error("the runs list does not say the best was verified")
	}
}
