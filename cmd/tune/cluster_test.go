package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
)

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// clusterSetup starts a broker process and returns its URL and token file.
func clusterSetup(t *testing.T, bin string) (url, tokenFile string) {
	t.Helper()
	dir := t.TempDir()
	tokenFile = filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte("t0ken-for-tests\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	b := start(t, bin, "broker", "--listen", addr, "--store", filepath.Join(dir, "store"), "--token-file", tokenFile)
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(b.stdout.String(), "listening") {
		if time.Now().After(deadline) {
			t.Fatalf("the broker did not start: %s", b.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return "nats://" + addr, tokenFile
}

// startWorker starts a worker process playing one game at a time; jobs it
// dies with go to others after 2 s.
func startWorker(t *testing.T, bin, url, tokenFile, name string) *started {
	t.Helper()
	return start(t, bin, "worker", "--nats", url, "--token-file", tokenFile, "--workers", "1", "--name", name, "--ack-wait", "2s")
}

func exportJSON(t *testing.T, bin, dir string) string {
	t.Helper()
	out, err := exec.Command(bin, "export", dir, "--format", "json").Output()
	if err != nil {
		t.Fatalf("export %s: %v", dir, err)
	}
	// The source names the run directory; the weights must agree.
	s := string(out)
	if i := strings.Index(s, `"source"`); i >= 0 {
		s = s[:i]
	}
	return s
}

// TestClusterRunSurvivesKills: a broker, a coordinator and worker processes
// play a genetic run; one worker is killed with -9 mid-generation and
// another joins late; then the coordinator is killed with -9 and resumed
// (with the broker settings it recorded) while the workers keep running.
// The exported best and the csv history are those of a local run.
func TestClusterRunSurvivesKills(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a broker, workers and a coordinator as processes")
	}
	bin := buildTune(t)
	root := t.TempDir()
	want := filepath.Join(root, "local")
	if out, err := exec.Command(bin, crashArgs(want, 2)...).CombinedOutput(); err != nil {
		t.Fatalf("local run: %v\n%s", err, out)
	}
	url, tok := clusterSetup(t, bin)
	w1 := startWorker(t, bin, url, tok, "w1")
	w2 := startWorker(t, bin, url, tok, "w2")

	dir := filepath.Join(root, "cluster")
	args := append(crashArgs(dir, 0), "--nats", url, "--token-file", tok, "--ack-wait", "2s")
	coord := exec.Command(bin, args...)
	var coordErr bytes.Buffer
	coord.Stderr = &coordErr
	if err := coord.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- coord.Wait() }()
	games := func(stage string, gen, n int) func(r *results.Run) bool {
		return func(r *results.Run) bool {
			c, err := r.CountGames(stage, gen)
			return err == nil && c >= n
		}
	}
	events := []string{}
	if waitFor(t, dir, done, games(population.StageGeneration, 1, 3)) {
		w1.cmd.Process.Signal(syscall.SIGKILL)
		events = append(events, "w1 killed mid-generation 1")
	}
	w3 := startWorker(t, bin, url, tok, "w3")
	if waitFor(t, dir, done, games(population.StageGeneration, 2, 3)) {
		coord.Process.Signal(syscall.SIGKILL)
		<-done
		events = append(events, "coordinator killed mid-generation 2")
		out, err := exec.Command(bin, "resume", dir, "--quiet", "--workers", "0").CombinedOutput()
		if err != nil {
			t.Fatalf("resume: %v\n%s", err, out)
		}
	} else if err := <-done; err != nil {
		t.Fatalf("coordinator: %v\n%s", err, coordErr.String())
	}
	if len(events) < 2 {
		t.Fatalf("the run ended before the kills landed (%v)", events)
	}
	if got, exp := exportCSV(t, bin, dir), exportCSV(t, bin, want); got != exp {
		t.Fatalf("the cluster's history differs from the local run's:\n%s\nwant:\n%s", got, exp)
	}
	if got, exp := exportJSON(t, bin, dir), exportJSON(t, bin, want); got != exp {
		t.Fatalf("the cluster's best differs from the local run's:\n%s\nwant:\n%s", got, exp)
	}
	t.Logf("%s; identical to the local run", strings.Join(events, ", "))
	for _, w := range []*started{w2, w3} {
		w.cmd.Process.Signal(os.Interrupt)
		if code := w.exitCode(t, 10*time.Second); code != exitInterrupted {
			t.Errorf("a worker stopped by Ctrl-C exited %d, want %d: %s", code, exitInterrupted, w.stderr.String())
		}
	}
}

// TestClusterWrongToken: a worker and a coordinator with a wrong token are
// refused, and say so.
func TestClusterWrongToken(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a broker as a process")
	}
	bin := buildTune(t)
	url, _ := clusterSetup(t, bin)
	bad := filepath.Join(t.TempDir(), "bad")
	os.WriteFile(bad, []byte("nope\n"), 0o600)
	for _, args := range [][]string{
		{"worker", "--nats", url, "--token-file", bad},
		{"match", "--game", "tictactoe", "--a", "default", "--b", "default", "--pairs", "1", "--nats", url, "--token-file", bad},
	} {
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "refused the token") {
			t.Errorf("%s with a wrong token: %v\n%s", args[0], err, out)
		}
	}
}

// TestClusterThroughput compares a match played by 2 worker processes (1
// game at a time each) through the broker with the local pool of 2 workers.
func TestClusterThroughput(t *testing.T) {
	if testing.Short() {
		t.Skip("times matches")
	}
	bin := buildTune(t)
	url, tok := clusterSetup(t, bin)
	startWorker(t, bin, url, tok, "a")
	startWorker(t, bin, url, tok, "b")
	const pairs = 30
	match := []string{"match", "--game", "othello", "--pairs", strconv.Itoa(pairs), "--depth", "4", "--a", "default", "--b", "default", "--quiet", "--json"}
	timed := func(extra ...string) (time.Duration, string) {
		start := time.Now()
		out, err := exec.Command(bin, append(append([]string{}, match...), extra...)...).Output()
		if err != nil {
			t.Fatalf("match %v: %v", extra, err)
		}
		return time.Since(start), string(out)
	}
	// Alternate, and keep each side's best time: the machine is shared.
	local, remote := time.Hour, time.Hour
	for range 2 {
		l, lout := timed("--workers", "2")
		r, rout := timed("--workers", "0", "--nats", url, "--token-file", tok)
		if lout != rout {
			t.Fatalf("the match through the broker differs from the local one:\n%s\nwant:\n%s", rout, lout)
		}
		local, remote = min(local, l), min(remote, r)
	}
	ratio := local.Seconds() / remote.Seconds()
	t.Logf("%d games: local pool (2 workers) %v, 2 remote workers %v: throughput ratio %.2f",
		2*pairs, local.Round(time.Millisecond), remote.Round(time.Millisecond), ratio)
	if ratio < 0.5 {
		t.Errorf("the cluster plays at %.2f of the local pool's speed", ratio)
	}
}

// TestDebianNATSServer plays a match through Debian's nats-server, where
// installed.
func TestDebianNATSServer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a broker as a process")
	}
	server, err := exec.LookPath("nats-server")
	if err != nil {
		t.Skip("nats-server is not installed")
	}
	bin := buildTune(t)
	dir := t.TempDir()
	tok := filepath.Join(dir, "token")
	os.WriteFile(tok, []byte("debian-token\n"), 0o600)
	addr := freeAddr(t)
	host, port, _ := net.SplitHostPort(addr)
	srv := start(t, server, "-a", host, "-p", port, "--auth", "debian-token", "-js", "-sd", filepath.Join(dir, "js"))
	url := "nats://" + addr
	deadline := time.Now().Add(20 * time.Second)
	for {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("nats-server did not start: %s", srv.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	startWorker(t, bin, url, tok, "debian")
	match := []string{"match", "--game", "othello", "--pairs", "4", "--depth", "3", "--a", "default", "--b", "default", "--quiet", "--json"}
	want, err := exec.Command(bin, append(match, "--workers", "1")...).Output()
	if err != nil {
		t.Fatal(err)
	}
	got, err := exec.Command(bin, append(match, "--workers", "0", "--nats", url, "--token-file", tok)...).CombinedOutput()
	if err != nil {
		t.Fatalf("match through %s: %v\n%s", server, err, got)
	}
	if string(got) != string(want) {
		t.Fatalf("through Debian's nats-server:\n%s\nwant:\n%s", got, want)
	}
}

// TestTokenFilesRefused: a token file that is a FIFO is refused within a
// second by every command that reads one (it used to block serve for
// ever), and one readable by others than its owner is refused too.
func TestTokenFilesRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	open := filepath.Join(dir, "open")
	os.WriteFile(open, []byte("tok\n"), 0o600)
	os.Chmod(open, 0o644)
	group := filepath.Join(dir, "group")
	os.WriteFile(group, []byte("tok\n"), 0o600)
	os.Chmod(group, 0o640)
	for _, c := range []struct {
		file, want string
	}{{fifo, "is a named pipe (FIFO)"}, {open, "readable by everyone"}, {group, "readable by its group"}} {
		for _, args := range [][]string{
			{"serve", "--runs", dir, "--listen", "127.0.0.1:0", "--token-file", c.file},
			{"worker", "--nats", "nats://127.0.0.1:1", "--token-file", c.file},
			{"broker", "--listen", "127.0.0.1:0", "--store", filepath.Join(dir, "store"), "--token-file", c.file},
			{"match", "--game", "tictactoe", "--a", "default", "--b", "default", "--pairs", "1", "--nats", "nats://127.0.0.1:1", "--token-file", c.file},
		} {
			type answer struct {
				code   int
				errOut string
			}
			got := make(chan answer, 1)
			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				var out, errOut bytes.Buffer
				code := execute(ctx, args, strings.NewReader(""), &out, &errOut)
				got <- answer{code, errOut.String()}
			}()
			select {
			case a := <-got:
				if a.code != exitUsage || !strings.Contains(a.errOut, c.want) {
					t.Errorf("%s with %s: exit %d, %q; want %d and %q", args[0], filepath.Base(c.file), a.code, a.errOut, exitUsage, c.want)
				}
			case <-time.After(10 * time.Second):
				t.Errorf("%s with %s: no answer within 10 seconds", args[0], filepath.Base(c.file))
			}
			cancel()
		}
	}
}

// TestClusterResumeElsewhere: a cluster run started with a relative
// --token-file, interrupted, resumes from another working directory: its
// cluster.json records the token file's absolute path.
func TestClusterResumeElsewhere(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a coordinator with its broker as a process, twice")
	}
	bin := buildTune(t)
	root := t.TempDir()
	started, elsewhere := filepath.Join(root, "started"), filepath.Join(root, "elsewhere")
	os.Mkdir(started, 0o755)
	os.Mkdir(elsewhere, 0o755)
	os.WriteFile(filepath.Join(started, "token"), []byte("t0ken\n"), 0o600)
	dir := filepath.Join(root, "run")
	coord := exec.Command(bin, append(crashArgs(dir, 1), "--broker-listen", freeAddr(t), "--token-file", "token")...)
	coord.Dir = started
	var coordErr bytes.Buffer
	coord.Stderr = &coordErr
	if err := coord.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- coord.Wait() }()
	if !waitFor(t, dir, done, func(r *results.Run) bool {
		c, err := r.CountGames(population.StageGeneration, 1)
		return err == nil && c >= 2
	}) {
		t.Fatalf("the run ended before it was interrupted: %s", coordErr.String())
	}
	coord.Process.Signal(os.Interrupt)
	<-done
	recorded, err := os.ReadFile(filepath.Join(dir, "cluster.json"))
	if err != nil || !strings.Contains(string(recorded), `"token_file": "`+filepath.Join(started, "token")+`"`) {
		t.Fatalf("cluster.json: %s, %v", recorded, err)
	}
	resume := exec.Command(bin, "resume", dir, "--quiet", "--workers", "1")
	resume.Dir = elsewhere
	if out, err := resume.CombinedOutput(); err != nil {
		t.Fatalf("resume from another directory: %v\n%s", err, out)
	}
	r, err := results.OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if info, err := r.Info(); err != nil || info.Status != results.StatusDone {
		t.Errorf("after resuming: %+v, %v", info, err)
	}
}

// TestWorkerKeyCommand: tune worker --new-key writes a key and prints its
// public key, never overwrites one; bad limits are usage errors.
func TestWorkerKeyCommand(t *testing.T) {
	key := filepath.Join(t.TempDir(), "w.nk")
	code, out, errOut := tune(t, "", "worker", "--new-key", key)
	if code != 0 || !strings.HasPrefix(out, "U") || len(strings.TrimSpace(out)) != 56 || !strings.Contains(errOut, "--worker-keys") {
		t.Fatalf("exit %d, %q, %q", code, out, errOut)
	}
	if st, err := os.Stat(key); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the key file: %v", err)
	}
	if code, _, errOut := tune(t, "", "worker", "--new-key", key); code != exitUsage || !strings.Contains(errOut, "never overwritten") {
		t.Errorf("a second --new-key: exit %d, %q", code, errOut)
	}
	if code, _, errOut := tune(t, "", "worker", "--nats", "nats://127.0.0.1:1", "--key-file", key, "--max-depth", "-1"); code != exitUsage || !strings.Contains(errOut, "worker limits depth -1") {
		t.Errorf("--max-depth -1: exit %d, %q", code, errOut)
	}
}
