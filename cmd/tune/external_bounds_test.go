package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hangingEngine is a UCI engine in sh that starts a child sleeping in its
// process group and, through setsid and a second fork, a grandchild in a
// session of its own, writes their ids (and its own) to pids, answers the
// handshake, notes "go" in going and then never answers. It waits for the
// setsid shell before it reads a command, so that its three ids are
// written before the handshake: tune's group kill of a start it ends soon
// after the handshake (the test sees two starts) cannot reach the setsid
// shell before it has left the group, however loaded the machine (with
// the shell in the background it did, once, and an id was missing).
const hangingEngine = `#!/bin/sh
echo $$ >> "$DIR/pids"
sleep 1000 &
echo $! >> "$DIR/pids"
setsid sh -c 'sleep 1000 & echo $! >> "$DIR/pids"' </dev/null >/dev/null 2>&1
while read -r line; do
	case "$line" in
	uci) echo "id name hanging"; echo uciok ;;
	isready) echo readyok ;;
	go*) echo go >> "$DIR/going" ;;
	quit) exit 0 ;;
	esac
done
`

// TestEngineTreeDiesWithTune (issue 30, item 7): after kill -9 of a
// 'tune match' whose external engine is searching, the engine and every
// process it started (in its process group, or in a session of its own
// after a double fork) are gone within two seconds.
func TestEngineTreeDiesWithTune(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the engines' supervisor is Linux's")
	}
	if testing.Short() {
		t.Skip("builds tune and kills it: skipped with -short")
	}
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid (util-linux) is not installed")
	}
	bin := buildTune(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "hanging.sh")
	if err := os.WriteFile(script, []byte(hangingEngine), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DIR", dir)
	p := start(t, bin, "match", "--game", "chess", "--a", "cmd="+script+",proto=uci,depth=1,stall=100000",
		"--b", "default", "--pairs", "1", "--engine-log", filepath.Join(dir, "engines.log"))
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, "going")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the engine was never asked for a move\nstderr: %s", p.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "pids"))
	pids := strings.Fields(string(data))
	if len(pids) < 6 {
		t.Fatalf("the engines wrote %d process ids, want 3 for each of two starts: %q", len(pids), data)
	}
	alive := func() []string {
		var out []string
		for _, s := range pids {
			if running(s) {
				out = append(out, s)
			}
		}
		return out
	}
	if len(alive()) == 0 {
		t.Fatal("no engine process is running before the kill")
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.done
	killed := time.Now()
	for end := killed.Add(2 * time.Second); len(alive()) > 0 && time.Now().Before(end); {
		time.Sleep(5 * time.Millisecond)
	}
	if left := alive(); len(left) > 0 {
		for _, s := range left {
			if n, err := strconv.Atoi(s); err == nil {
				syscall.Kill(n, syscall.SIGKILL)
			}
		}
		t.Fatalf("processes of the engine alive 2s after tune was killed: %v", left)
	}
	t.Logf("%d processes of the engines gone %v after tune was killed", len(pids), time.Since(killed).Round(time.Millisecond))
}

// running reports whether the process pid is alive (not a zombie).
func running(pid string) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return false
	}
	s := string(stat)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z"
}

// TestEngineLogAndFaultRecord (issue 29; issue 30, item 14): a match whose
// engine writes nothing to stderr leaves no engines log in the temporary
// directory; a match whose engine stalls writes the stall's detail to the
// games file and to the log.
func TestEngineLogAndFaultRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tune and an engine: skipped with -short")
	}
	bin := buildTune(t)
	dir := t.TempDir()
	engine := filepath.Join(dir, "testengine")
	if out, err := exec.Command("go", "build", "-o", engine, "../../tournament/external/internal/testengine").CombinedOutput(); err != nil {
		t.Fatalf("building the test engine: %v\n%s", err, out)
	}
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	match := func(spec string, extra ...string) {
		t.Helper()
		args := append([]string{"match", "--game", "chess", "--a", spec, "--b", "default", "--pairs", "1", "--max-plies", "10", "--quiet"}, extra...)
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Fatalf("tune %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	match("cmd=" + engine + ",proto=uci,depth=1")
	if left, _ := filepath.Glob(filepath.Join(tmp, "gametune-engines-*")); len(left) > 0 {
		t.Errorf("a match whose engine wrote nothing left %v", left)
	}
	games := filepath.Join(dir, "games.pgn")
	// The stall limit also bounds the handshake: 3 s, so that an engine slow
	// to start on a busy machine still reaches the ply where it stalls.
	match("cmd="+engine+",proto=uci,depth=1,name=staller,stall=3000,arg=-stall-at,arg=4", "--games-out", games)
	const detail = "staller: no answer in 3s while searching"
	if pgn, _ := os.ReadFile(games); !strings.Contains(string(pgn), `[TerminationDetails "`+detail) {
		t.Errorf("the games file lacks the stall's detail:\n%s", pgn)
	}
	logs, _ := filepath.Glob(filepath.Join(tmp, "gametune-engines-*"))
	if len(logs) != 1 {
		t.Fatalf("engines logs %v, want one", logs)
	}
	if log, _ := os.ReadFile(logs[0]); !strings.Contains(string(log), detail) {
		t.Errorf("the engines log lacks the stall's detail:\n%s", log)
	}
}
