package external

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
)

// Debian's engines; .ci/run installs them, and the tests that need one
// skip where it is absent.
const (
	stockfishPath = "/usr/games/stockfish"
	rhinoPath     = "/usr/games/gtp-rhino"
)

// ownerVariable marks every process the tests start (children inherit
// it), so that leftovers can be found by listing processes.
const ownerVariable = "GAMETUNE_TEST_OWNER"

func TestParse(t *testing.T) {
	good := map[string]string{
		"cmd=/bin/sf,proto=uci,depth=8":                                    "cmd=/bin/sf,proto=uci,name=sf,depth=8",
		"cmd=e,proto=uci,name=x,arg=-a,arg=b,dir=d,option.Hash=16,nodes=5": "cmd=e,proto=uci,name=x,arg=-a,arg=b,dir=d,option.Hash=16,nodes=5",
		"cmd=e,proto=uci,tc=40/60+0.5,timemargin=50,restart=on":            "cmd=e,proto=uci,name=e,tc=40/60+0.5,restart=on,timemargin=50",
		"cmd=e,proto=gtp,arg=-l,arg=3":                                     "cmd=e,proto=gtp,name=e,arg=-l,arg=3",
		"cmd=e,proto=xboard,st=2,option.memory=64":                         "cmd=e,proto=xboard,name=e,option.memory=64,movetime=2000",
		"cmd=e,proto=uci,movetime=100,stall=2000":                          "cmd=e,proto=uci,name=e,movetime=100,stall=2000",
	}
	for in, want := range good {
		e, err := Parse(in)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if got := e.String(); got != want {
			t.Errorf("%s: read back as %s, want %s", in, got, want)
		}
	}
	bad := map[string]string{
		"proto=uci,depth=1":                   "cmd= is missing",
		"cmd=e,proto=cecp,depth=1":            "want uci or xboard (chess), or gtp (Othello)",
		"cmd=e,proto=xboard":                  "an xboard engine needs depth=",
		"cmd=e,proto=xboard,movetime=1500":    "xboard's st takes whole seconds",
		"cmd=e,proto=uci":                     "needs depth=",
		"cmd=e,proto=uci,depth=1,nodes=2":     "not 2",
		"cmd=e,proto=uci,tc=40/":              "tc=40/",
		"cmd=e,proto=uci,tc=x+1":              "seconds",
		"cmd=e,proto=uci,tc=1+y":              "increment",
		"cmd=e,proto=gtp,depth=3":             "GTP has no depth",
		"cmd=e,proto=uci,depth=1,color=1":     "unknown key",
		"cmd=e,proto=uci,depth":               "not KEY=VALUE",
		"cmd=e,cmd=f,proto=uci,depth=1":       "twice",
		"cmd=e,proto=uci,restart=yes,depth=1": "restart=yes",
		"cmd=e\x15,depth=1":                   "control character",
		"cmd=e,arg=a\nb,depth=1":              "control character",
	}
	for in, want := range bad {
		_, err := Parse(in)
		if err == nil || !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one with %q", in, err, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("cmd=/bin/sf,proto=uci,option.Hash=16,tc=40/60+0.5")
	f.Add("cmd=\x15,tc=10") // a command named with a control character once gave a name that did not read back
	f.Fuzz(func(t *testing.T, s string) {
		e, err := Parse(s)
		if err != nil {
			return
		}
		back, err := Parse(e.String())
		if err != nil || back.String() != e.String() {
			t.Fatalf("%q: read back %q: %v", s, e.String(), err)
		}
	})
}

// buildTestEngine builds the misbehaving engine of internal/testengine.
func buildTestEngine(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds an engine program: skipped with -short")
	}
	bin := filepath.Join(t.TempDir(), "testengine")
	out, err := exec.Command("go", "build", "-o", bin, "./internal/testengine").CombinedOutput()
	if err != nil {
		t.Fatalf("building the test engine: %v\n%s", err, out)
	}
	return bin
}

// markProcesses marks the processes the test starts with ownerVariable
// and checks at the end that none is left.
func markProcesses(t *testing.T) {
	t.Helper()
	mark := ownerVariable + "=" + strconv.Itoa(os.Getpid()) + "-" + t.Name()
	k, v, _ := strings.Cut(mark, "=")
	t.Setenv(k, v)
	t.Cleanup(func() {
		if left := marked(mark); len(left) > 0 {
			t.Errorf("processes left behind: %v", left)
		}
	})
}

// marked lists the live processes whose environment holds mark, with
// their command lines.
func marked(mark string) []string {
	var out []string
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", d.Name(), "environ"))
		if err != nil || !bytes.Contains(env, []byte(mark+"\x00")) {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if f := strings.Fields(string(stat)); len(f) > 2 && f[2] == "Z" {
			continue // killed, waiting for its reaper
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		ppid := ""
		if f := strings.Fields(string(stat)); len(f) > 3 {
			ppid = " (parent " + f[3] + ")"
		}
		out = append(out, d.Name()+": "+strings.ReplaceAll(string(cmdline), "\x00", " ")+ppid)
	}
	return out
}

// children lists the live child processes of the test.
func children() []string {
	var out []string
	me := strconv.Itoa(os.Getpid())
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		stat, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(stat)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 && f[1] == me && f[0] != "Z" {
			out = append(out, d.Name())
		}
	}
	return out
}

func mustSpec(t *testing.T, s string) Spec {
	t.Helper()
	e, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// enginePlayer is the player of spec s, named after the engine.
func enginePlayer(t *testing.T, s string) tournament.Player {
	t.Helper()
	e := mustSpec(t, s)
	return tournament.Player{Name: e.Name, Engine: e}
}

// syncBuffer is a log written by several engines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestExternalFaults: engines that exit mid-game, stop answering, play an
// illegal move or ignore quit each lose their game with the reason, the
// match goes on (the engine restarted), and no process is left once the
// pool is closed, grandchildren included.
func TestExternalFaults(t *testing.T) {
	bin := buildTestEngine(t)
	markProcesses(t)
	g, _ := all.Find("chess")
	ev, _ := games.FindEvaluator(g, "textbook")
	builtin := tournament.Player{Name: "builtin", Evaluator: ev, Weights: ev.Defaults(), Limits: engine.Limits{Depth: 1}}
	cases := []struct {
		flags  string
		reason tournament.Reason
		detail string
	}{
		{"arg=-crash-at,arg=6", tournament.ByCrash, "exited"},
		{"arg=-stall-at,arg=6,stall=300", tournament.ByStall, "no answer"},
		{"arg=-illegal-at,arg=6", tournament.ByIllegal, "a1a1"},
		{"arg=-ignore-quit,arg=-child,arg=-crash-at,arg=500", tournament.ByRule, ""},
	}
	for _, tc := range cases {
		t.Run(tc.flags, func(t *testing.T) {
			pool, err := tournament.NewPool(1, 1)
			if err != nil {
				t.Fatal(err)
			}
			var log syncBuffer
			pool.SetEngineLog(&log)
			ext := enginePlayer(t, "cmd="+bin+",proto=uci,name=test,depth=1,arg=-child,"+tc.flags)
			specs := tournament.MatchSpecs(g, builtin, ext, 2, nil, 60, tournament.Adjudication{})
			var recs []tournament.Record
			err = pool.Run(context.Background(), specs, func(i int, r tournament.Record) error {
				recs = append(recs, r)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 4 {
				t.Fatalf("%d games delivered, want 4", len(recs))
			}
			for i, r := range recs {
				if r.Reason == tournament.ByPlyCap {
					r.Reason = tournament.ByRule
				}
				if r.Reason != tc.reason {
					t.Errorf("game %d: reason %s (%s), want %s", i, r.Reason, r.Detail, tc.reason)
				}
				if tc.reason != tournament.ByRule {
					extSide := games.Second
					if i%2 == 1 {
						extSide = games.First
					}
					if w, _ := r.Outcome.Winner(); r.Outcome == games.Draw || w == extSide {
						t.Errorf("game %d: %s, but the faulty engine should lose", i, r.Outcome)
					}
					if !strings.Contains(r.Detail, tc.detail) || !strings.HasPrefix(r.Detail, "test: ") {
						t.Errorf("game %d: detail %q, want the engine's name and %q", i, r.Detail, tc.detail)
					}
				}
			}
			if len(children()) == 0 && tc.reason == tournament.ByRule {
				t.Errorf("no engine process kept between games")
			}
			pool.Close()
			if c := children(); len(c) > 0 {
				t.Errorf("children left after Close: %v", c)
			}
			if tc.reason == tournament.ByCrash && !strings.Contains(log.String(), "test: testengine: crashing on purpose") {
				t.Errorf("the engine's stderr is not in the log:\n%s", log.String())
			}
		})
	}
}

// TestExternalCancel: cancelling a match mid-game kills the engines.
func TestExternalCancel(t *testing.T) {
	bin := buildTestEngine(t)
	markProcesses(t)
	g, _ := all.Find("chess")
	pool, _ := tournament.NewPool(2, 1)
	defer pool.Close()
	a := enginePlayer(t, "cmd="+bin+",proto=uci,name=a,depth=1,arg=-child,arg=-stall-at,arg=3")
	b := enginePlayer(t, "cmd="+bin+",proto=uci,name=b,depth=1,arg=-child")
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	err := pool.Run(ctx, tournament.MatchSpecs(g, a, b, 2, nil, 40, tournament.Adjudication{}), func(int, tournament.Record) error { return nil })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Run: %v, want the deadline", err)
	}
	pool.Close()
	if c := children(); len(c) > 0 {
		t.Errorf("children left after a cancelled run: %v", c)
	}
}

// TestCheck: bad specs are refused before any game.
func TestCheck(t *testing.T) {
	bin := buildTestEngine(t)
	markProcesses(t)
	chess, _ := all.Find("chess")
	othello, _ := all.Find("othello")
	cases := []struct {
		game games.Game
		spec string
		want string
	}{
		{chess, "cmd=/nonexistent/engine,proto=uci,depth=1", "no such file"},
		{chess, "cmd=" + filepath.Dir(bin) + ",proto=uci,depth=1", "cmd="},
		{othello, "cmd=" + bin + ",proto=uci,depth=1", "plays chess, not othello"},
		{chess, "cmd=" + bin + ",proto=uci,depth=1,option.Threads=2", `lists no option "Threads"`},
		{chess, "cmd=" + bin + ",proto=uci,depth=1,option.hash=8", ""},
	}
	for _, tc := range cases {
		e := mustSpec(t, tc.spec)
		err := Check(context.Background(), tc.game, e, nil)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.spec, err)
			}
			continue
		}
		if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrSpec with %q", tc.spec, err, tc.want)
		}
	}
}

// TestTimeForfeit: a clock too short for the engine loses on time.
func TestTimeForfeit(t *testing.T) {
	bin := buildTestEngine(t)
	markProcesses(t)
	g, _ := all.Find("chess")
	pool, _ := tournament.NewPool(1, 1)
	defer pool.Close()
	slow := enginePlayer(t, "cmd="+bin+",proto=uci,name=slow,tc=0.2,timemargin=10,arg=-stall-at,arg=2")
	fast := enginePlayer(t, "cmd="+bin+",proto=uci,name=fast,tc=10")
	var recs []tournament.Record
	err := pool.Run(context.Background(), []tournament.GameSpec{{Game: g, First: fast, Second: slow, MaxPlies: 20}}, func(_ int, r tournament.Record) error {
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if r := recs[0]; r.Reason != tournament.ByTime || r.Outcome != games.FirstWins {
		t.Fatalf("%s %s (%s), want a loss on time for the second", r.Outcome, r.Reason, r.Detail)
	}
}

// externalMatch plays a against b over pairs colour-swapped pairs on
// workers and logs W-D-L, Elo and games/s from a's point of view.
func externalMatch(t *testing.T, g games.Game, a, b tournament.Player, pairs, workers int, openings []string) stats.WDL {
	t.Helper()
	pool, err := tournament.NewPool(workers, 16)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var log syncBuffer
	pool.SetEngineLog(&log)
	start := time.Now()
	res, err := tournament.RunMatch(context.Background(), pool, tournament.MatchSpecs(g, a, b, pairs, openings, 0, tournament.Adjudication{}), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res.Records {
		if r.Detail != "" {
			t.Errorf("game %d: %s %s: %s", i, r.Outcome, r.Reason, r.Detail)
		}
	}
	secs := time.Since(start).Seconds()
	t.Logf("%s vs %s: %d pairs, W-D-L %d-%d-%d, Elo %s (pairs: %s), %.3f games/s (%.1f s, %d workers)",
		a.Name, b.Name, pairs, res.WDL.Wins, res.WDL.Draws, res.WDL.Losses, res.WDL.EloEstimate(), res.Pentanomial.EloEstimate(),
		float64(len(res.Records))/secs, secs, workers)
	return res.WDL
}

func needEngine(t *testing.T, path string) {
	t.Helper()
	if testing.Short() {
		t.Skip("games against an external engine: skipped with -short")
	}
	if _, err := exec.LookPath(path); err != nil {
		t.Skipf("%s is not installed (Debian package; .ci/run installs it)", path)
	}
}

// pairsFromEnv reads a number of pairs from the environment, def without.
func pairsFromEnv(t *testing.T, name string, def int) int {
	t.Helper()
	if s := os.Getenv(name); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("%s=%q: want a positive number", name, s)
		}
		return n
	}
	return def
}

// TestAgainstStockfish: textbook at depth 5 against Debian's Stockfish at
// UCI_Elo 1800, depth 8. One pair by default; GAMETUNE_STOCKFISH_PAIRS=10
// measures the match.
func TestAgainstStockfish(t *testing.T) {
	needEngine(t, stockfishPath)
	markProcesses(t)
	g, _ := all.Find("chess")
	ev, _ := games.FindEvaluator(g, "textbook")
	ours := tournament.Player{Name: "textbook-d5", Evaluator: ev, Weights: ev.Defaults(), Limits: engine.Limits{Depth: 5}}
	sf := enginePlayer(t, "cmd="+stockfishPath+",proto=uci,option.UCI_LimitStrength=true,option.UCI_Elo=1800,option.Threads=1,option.Hash=16,depth=8")
	openings, err := tournament.RandomOpenings(context.Background(), g, "random:4", 1)
	if err != nil {
		t.Fatal(err)
	}
	externalMatch(t, g, ours, sf, pairsFromEnv(t, "GAMETUNE_STOCKFISH_PAIRS", 1), 1, openings)
}

// TestAgainstRhino: full at depth 6 against GRhino's gtp-rhino at level 3,
// from openings given as moves (GTP cannot set up a position). One pair by
// default; GAMETUNE_RHINO_PAIRS=10 measures the match.
func TestAgainstRhino(t *testing.T) {
	needEngine(t, rhinoPath)
	markProcesses(t)
	g, _ := all.Find("othello")
	ev, _ := games.FindEvaluator(g, "full")
	ours := tournament.Player{Name: "full-d6", Evaluator: ev, Weights: ev.Defaults(), Limits: engine.Limits{Depth: 6}}
	rhino := enginePlayer(t, "cmd="+rhinoPath+",proto=gtp,arg=-l,arg=3")
	openings, err := tournament.RandomOpeningMoves(context.Background(), g, "random:4", 1)
	if err != nil {
		t.Fatal(err)
	}
	externalMatch(t, g, ours, rhino, pairsFromEnv(t, "GAMETUNE_RHINO_PAIRS", 1), 1, openings)
}

// BenchmarkExternalGame measures the runner's own cost of a game between
// two external engines that answer at once (the test engine plays its
// first legal move): process I/O, move parsing and legality checks,
// clocks; 40 plies a game, processes kept between games.
func BenchmarkExternalGame(b *testing.B) {
	bin := buildTestEngine(b)
	g, _ := all.Find("chess")
	pool, _ := tournament.NewPool(1, 1)
	defer pool.Close()
	spec := func(name string) tournament.Player {
		e, err := Parse("cmd=" + bin + ",proto=uci,tc=60+1,name=" + name)
		if err != nil {
			b.Fatal(err)
		}
		return tournament.Player{Name: name, Engine: e}
	}
	specs := []tournament.GameSpec{{Game: g, First: spec("a"), Second: spec("b"), MaxPlies: 40}}
	plies := 0
	for b.Loop() {
		if err := pool.Run(context.Background(), specs, func(_ int, r tournament.Record) error { plies += r.Plies; return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(plies), "µs/ply")
}

// TestSpecWords: fastchess's and cutechess's ways of writing an engine:
// proto defaults to UCI, st= is seconds a move, tc=inf is no clock (with
// another limit), M:SS clocks, and quoted values holding commas.
func TestSpecWords(t *testing.T) {
	s, err := Parse(`cmd=e,st=0.25,option.Path="a,b",name="x y"`)
	if err != nil || s.Protocol != ProtocolUCI || s.MoveTime != 250*time.Millisecond || s.Name != "x y" {
		t.Fatalf("%+v %v", s, err)
	}
	if len(s.Options) != 1 || s.Options[0].Value != "a,b" {
		t.Errorf("quoted option: %+v", s.Options)
	}
	if s, err := Parse("cmd=e,tc=inf,depth=8"); err != nil || s.TC != nil || s.Depth != 8 {
		t.Errorf("tc=inf depth=8: %+v %v", s, err)
	}
	if s, err := Parse("cmd=e,tc=1:00+1"); err != nil || s.TC == nil || s.TC.Base != time.Minute || s.TC.Increment != time.Second {
		t.Errorf("tc=1:00+1: %+v %v", s, err)
	}
	for in, want := range map[string]string{
		"cmd=e,tc=inf":                "a UCI engine needs",
		"cmd=e,st=0":                  "want seconds a move",
		"cmd=e,st=1,depth=2":          "give one of",
		`cmd=e,option.P="a,b,depth=1`: "not closed",
	} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}
