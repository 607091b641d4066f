package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The search issue's SPSA experiments: SPSA tunes tune engine's search
// parameters through its own protocol (UCI in chess, GTP in Othello) for
// 10,024 games of a 20,000-game budget in chess, 14,000 in Othello, at a
// fixed node count, from their hand-set values; then its
// last values play the hand-set ones at a clock (chess 10+0.1, Othello
// 2+0.02, the clock of its selective-against-exact match: each side uses
// most of its clock, so 200 pairs at 10+0.1 would take two hours in
// Othello too), 200 pairs on openings of a seed the run never used, and
// must win with the interval above 0.
// GAMETUNE_SPSA_DIR keeps the runs in a folder (DIR/chess, DIR/othello),
// resumed if interrupted and not played again once done;
// GAMETUNE_WORKERS plays that many games at once (1: each clock has its
// core). The commands and figures are on the experiments page.

// searchSPSACase is one game's run and its verification.
type searchSPSACase struct {
	game, engine, limit, params string // engine: the tune engine spec without its limit
	seed, verifySeed, tc        string
	adj                         []string
	games                       int // the run's budget
	// stopAt is the generation the verification takes, the run stopped
	// (SIGINT) once past it: the chess run's budget set its schedule, and it
	// was stopped after 10,024 of its 20,000 games. 0: the run's last.
	stopAt int
}

var searchSPSACases = []searchSPSACase{
	{"chess", ",proto=uci,arg=engine,arg=chess", ",nodes=10000,stall=120000", chessSearchParams,
		"5341", "5345", "10+0.1", chessAdj, 20000, 298},
	{"othello", ",proto=gtp,arg=engine,arg=othello", ",arg=--depth,arg=0,arg=--nodes,arg=50000,stall=120000",
		othelloSearchParams, "5351", "5355", "2+0.02", nil, 14000, 0},
}

// The parameters and their SPSA settings as OpenBench writes them: name,
// type, start (the hand-set value), min, max, c_end (about a twentieth of
// the range a value is useful in), r_end.

// chessSearchParams are the second chess run's (the first, seed 5311, took
// 12 of them for 10,000 games and scored +14.8 [-9.9, +39.6]): every
// parameter of chess's techniques, in the order of tune games.
const chessSearchParams = `null-min-depth, int, 3, 1, 8, 1, 0.004
null-reduction, int, 3, 1, 6, 0.5, 0.004
null-divisor, int, 4, 1, 16, 1, 0.004
null-verify-from, int, 12, 4, 40, 2, 0.004
lmr-min-depth, int, 3, 1, 8, 1, 0.004
lmr-min-move, int, 3, 1, 20, 1, 0.004
lmr-base, int, 75, 0, 300, 15, 0.004
lmr-divisor, int, 225, 100, 600, 25, 0.004
lmp-max-depth, int, 3, 0, 8, 1, 0.004
lmp-base, int, 3, 1, 30, 1.5, 0.004
lmp-scale, int, 100, 0, 400, 20, 0.004
futility-max-depth, int, 3, 0, 8, 1, 0.004
futility-base, int, 50, 0, 1000, 20, 0.004
futility-margin, int, 100, 0, 1000, 15, 0.004
rfp-max-depth, int, 6, 0, 12, 1, 0.004
rfp-margin, int, 80, 0, 1000, 12, 0.004
razor-max-depth, int, 2, 0, 6, 1, 0.004
razor-base, int, 300, 0, 2000, 40, 0.004
razor-margin, int, 200, 0, 2000, 30, 0.004
see-margin, int, 0, 0, 1000, 15, 0.004
`

// othelloSearchParams are the second Othello run's (the first, seed 5321,
// took 11 of these and probcut-threshold for 10,000 games):
// with the depth limits of LMR, LMP and ProbCut.
const othelloSearchParams = `lmr-min-depth, int, 3, 1, 8, 1, 0.004
lmr-min-move, int, 3, 1, 20, 1, 0.004
lmr-base, int, 75, 0, 300, 15, 0.004
lmr-divisor, int, 225, 100, 600, 25, 0.004
lmp-max-depth, int, 3, 0, 8, 1, 0.004
lmp-base, int, 3, 1, 30, 1.5, 0.004
lmp-scale, int, 100, 0, 400, 20, 0.004
futility-base, int, 50, 0, 1000, 20, 0.004
futility-margin, int, 100, 0, 1000, 15, 0.004
rfp-margin, int, 80, 0, 1000, 12, 0.004
razor-base, int, 300, 0, 2000, 40, 0.004
razor-margin, int, 200, 0, 2000, 30, 0.004
probcut-min-depth, int, 3, 1, 10, 1, 0.004
probcut-threshold, int, 150, 0, 500, 15, 0.004
`

// TestExperimentSearchSPSA: each game's SPSA run (about an hour on 2
// cores) and its verification at a clock (GAMETUNE_GAME for one game).
func TestExperimentSearchSPSA(t *testing.T) {
	experiment(t)
	bin := buildTune(t)
	for _, c := range searchSPSACases {
		if g := os.Getenv("GAMETUNE_GAME"); g != "" && g != c.game {
			continue
		}
		t.Run(c.game, func(t *testing.T) {
			dir := spsaRun(t, bin, c)
			options := spsaOptions(t, bin, dir, c)
			t.Logf("SPSA's last values: %s", strings.Join(options, " "))
			engine := "cmd=" + bin + c.engine + ",tc=" + c.tc
			args := append([]string{"--game", c.game, "--a", engine + ",name=spsa," + strings.Join(options, ","),
				"--b", engine + ",name=hand-set," + strings.Join(startOptions(c.params), ","), "--pairs", itoa(envInt(t, "GAMETUNE_PAIRS", 200)),
				"--workers", itoa(envInt(t, "GAMETUNE_WORKERS", 1)), "--seed", c.verifySeed, "--openings", "random:8"}, c.adj...)
			m := playMatch(t, args...)
			if elo, low, high := m.elo(); low <= 0 {
				t.Errorf("SPSA's values against the hand-set ones at %s: %+.0f [%+.0f, %+.0f], want the interval above 0", c.tc, elo, low, high)
			}
		})
	}
}

// spsaRun plays (or resumes, or finds done) the case's SPSA run and
// returns its folder.
func spsaRun(t *testing.T, bin string, c searchSPSACase) string {
	t.Helper()
	root := os.Getenv("GAMETUNE_SPSA_DIR")
	if root == "" {
		root = t.TempDir()
	}
	dir := filepath.Join(root, c.game)
	params := filepath.Join(root, c.game+"-search.params")
	if err := os.WriteFile(params, []byte(c.params), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "--game", c.game, "--algo", "spsa", "--tune-engine", "cmd=" + bin + c.engine + c.limit,
		"--params", params, "--budget-games", itoa(spsaGames(t, c)), "--openings", "random:8", "--seed", c.seed,
		"--ladder-pairs", "-1", "--verify", "off", "--out", dir}
	if _, err := os.Stat(filepath.Join(dir, "run.db")); err == nil {
		if s := spsaShow(t, bin, dir); s.Status == "done" || spsaStop(t, c) > 0 && s.Generations > spsaStop(t, c) {
			return dir
		}
		args = []string{"resume", dir}
	}
	p := start(t, bin, append(args, "--quiet")...)
	if spsaStop(t, c) > 0 {
		stopPast(t, bin, dir, p, spsaStop(t, c))
	}
	if code := p.exitCode(t, 4*time.Hour); code != 0 && (spsaStop(t, c) == 0 || code != exitInterrupted) {
		t.Fatalf("SPSA run: exit %d: %s", code, p.stderr)
	}
	return dir
}

// stopPast interrupts the run p in dir (SIGINT: it keeps what it played)
// once it has played past generation g.
func stopPast(t *testing.T, bin, dir string, p *started, g int) {
	t.Helper()
	for {
		select {
		case err := <-p.done:
			p.done <- err
			return
		case <-time.After(20 * time.Second):
		}
		if spsaShow(t, bin, dir).Generations > g {
			p.cmd.Process.Signal(syscall.SIGINT)
			return
		}
	}
}

// spsaGames is the case's budget: 20,000 games in chess, 14,000 in Othello
// (GAMETUNE_SPSA_GAMES for a trial of the experiment's plumbing).
func spsaGames(t *testing.T, c searchSPSACase) int { return envInt(t, "GAMETUNE_SPSA_GAMES", c.games) }

// spsaStop is the case's stopAt, or 0 (the run's end) for a trial with
// another budget.
func spsaStop(t *testing.T, c searchSPSACase) int {
	if spsaGames(t, c) != c.games {
		return 0
	}
	return c.stopAt
}

type spsaShown struct {
	Status      string
	Games       int
	Generations int
}

func spsaShow(t *testing.T, bin, dir string) spsaShown {
	t.Helper()
	p := start(t, bin, "show", dir, "--json")
	if code := p.exitCode(t, time.Minute); code != 0 {
		t.Fatalf("show: exit %d: %s", code, p.stderr)
	}
	var s spsaShown
	if err := json.Unmarshal([]byte(p.stdout.String()), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// spsaOptions exports the run's last block (SPSA's values when it
// stopped, as fishtest reports them), or the case's stopAt, as
// option.NAME=VALUE settings.
func spsaOptions(t *testing.T, bin, dir string, c searchSPSACase) []string {
	t.Helper()
	s := spsaShow(t, bin, dir)
	g, stop := s.Generations-1, spsaStop(t, c)
	switch {
	case stop > 0 && s.Generations <= stop:
		t.Fatalf("SPSA run %s: %s after %d generations, want past %d", dir, s.Status, s.Generations, stop)
	case stop > 0:
		g = stop
	case s.Status != "done" || s.Games < spsaGames(t, c):
		t.Fatalf("SPSA run %s: %s after %d games, want done after %d", dir, s.Status, s.Games, spsaGames(t, c))
	}
	p := start(t, bin, "export", dir, "--generation", itoa(g), "--format", "uci")
	if code := p.exitCode(t, time.Minute); code != 0 {
		t.Fatalf("export: exit %d: %s", code, p.stderr)
	}
	var options []string
	for _, line := range strings.Split(strings.TrimSpace(p.stdout.String()), "\n") {
		var name, value string
		f := strings.Fields(line)
		if len(f) == 5 && f[0] == "setoption" && f[1] == "name" && f[3] == "value" {
			name, value = f[2], f[4]
		} else {
			t.Fatalf("export: %q is not a setoption line", line)
		}
		options = append(options, "option."+name+"="+value)
	}
	if len(options) == 0 {
		t.Fatal("export gave no options")
	}
	return options
}

// startOptions are the hand-set values of params (each line's start) as
// option.NAME=VALUE settings: the engine's defaults when the run was made
// (Othello's defaults are now the run's values, games/othello/selective.go).
func startOptions(params string) []string {
	var opts []string
	for _, line := range strings.Split(strings.TrimSpace(params), "\n") {
		f := strings.Split(line, ", ")
		opts = append(opts, "option."+f[0]+"="+f[2])
	}
	return opts
}

// TestStartOptions: the match's hand-set side gets every parameter of the
// run at its start, in the file's order.
func TestStartOptions(t *testing.T) {
	got := startOptions(othelloSearchParams)
	if len(got) != 14 || got[0] != "option.lmr-min-depth=3" || got[13] != "option.probcut-threshold=150" {
		t.Errorf("startOptions(othello) = %q: want 14, from option.lmr-min-depth=3 to option.probcut-threshold=150", got)
	}
}
