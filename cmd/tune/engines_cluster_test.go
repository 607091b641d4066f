package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// enginesOnWorkers plays, through a broker and two worker processes whose
// engines files allow Stockfish and 'tune engine chess' (this binary), a
// match of the two engines (pairs) and an SPSA run of --tune-engine on the
// latter's material values (budget games and its yardstick), each engine at
// limit (a spec's depth= or tc=); every command must end well, its games
// played on the workers.
func enginesOnWorkers(t *testing.T, limit string, pairs, budget int) {
	if _, err := os.Stat("/usr/games/stockfish"); err != nil {
		t.Skip("needs Debian's stockfish package")
	}
	bin := buildTune(t)
	dir := t.TempDir()
	url, tok := clusterSetup(t, bin)
	enginesFile := filepath.Join(dir, "engines.yaml")
	os.WriteFile(enginesFile, []byte("- name: sf\n  cmd: /usr/games/stockfish\n  proto: uci\n  depth: 1\n"+
		"- name: tune\n  cmd: "+bin+"\n  proto: uci\n  args: [engine, chess]\n  depth: 1\n"), 0o644)
	var workers []*started
	for _, name := range []string{"w1", "w2"} {
		workers = append(workers, start(t, bin, "worker", "--nats", url, "--token-file", tok, "--workers", "1", "--name", name, "--engines", enginesFile, "--cache", filepath.Join(dir, name)))
	}
	nats := []string{"--nats", url, "--token-file", tok, "--workers", "0"}
	sf := "cmd=/usr/games/stockfish,proto=uci,name=sf,option.Threads=1,option.Hash=16," + limit
	own := "cmd=" + bin + ",proto=uci,arg=engine,arg=chess," + limit
	m := start(t, bin, append([]string{"match", "--game", "chess", "--a", sf, "--b", own, "--pairs", itoa(pairs), "--json"}, nats...)...)
	if code := m.exitCode(t, 20*time.Minute); code != 0 || !strings.Contains(m.stdout.String(), `"games": 2`) {
		t.Fatalf("match: exit %d\n%s\n%s", code, m.stdout, m.stderr)
	}
	params := filepath.Join(dir, "params.txt")
	os.WriteFile(params, []byte("pawn, int, 100, 50, 200, 10, 0.002\nknight, int, 300, 150, 600, 20, 0.002\n"), 0o644)
	r := start(t, bin, append([]string{"run", "--game", "chess", "--algo", "spsa", "--tune-engine", own, "--params", params,
		"--budget-games", itoa(budget), "--yardstick-pairs", "1", "--ladder-pairs", "-1", "--openings", "random:4", "--out", filepath.Join(dir, "run")}, nats...)...)
	if code := r.exitCode(t, 30*time.Minute); code != 0 {
		t.Fatalf("run --tune-engine: exit %d\n%s\n%s", code, r.stdout, r.stderr)
	}
	// Every game went to the workers (the coordinators play none: --workers 0).
	for _, w := range workers {
		w.cmd.Process.Signal(os.Interrupt)
		w.exitCode(t, time.Minute)
		line := lastLine(w.stderr.String(), "worker w")
		if !strings.Contains(line, "games played") || strings.Contains(line, ": 0 games played") {
			t.Errorf("a worker played no game: %q", w.stderr.String())
		}
		t.Log(line)
	}
}

func lastLine(s, prefix string) string {
	i := strings.LastIndex(s, prefix)
	if i < 0 {
		return ""
	}
	line, _, _ := strings.Cut(s[i:], "\n")
	return line
}

// TestEngineCommandsOnWorkers (issue 54): external engines, an opponent and the
// engine a run tunes, on workers that allow them, at depth 1.
func TestEngineCommandsOnWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a broker, workers and engine processes")
	}
	enginesOnWorkers(t, "depth=1", 1, 20)
}

// TestEngineCommandsAtAClock is TestEngineCommandsOnWorkers at issue 54's
// clock: Stockfish against 'tune engine chess' at 10+0.1 (a pair), and an
// SPSA run of 8 games at 10+0.1 (some 4 minutes on 2 cores).
func TestEngineCommandsAtAClock(t *testing.T) {
	long(t, "games of engines at 10+0.1 on workers")
	enginesOnWorkers(t, "tc=10+0.1", 1, 8)
}
