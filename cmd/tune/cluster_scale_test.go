package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// peakRSS returns a process's peak resident memory (VmHWM), in KiB; 0
// where /proc does not tell.
func peakRSS(pid int) int {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return kb
		}
	}
	return 0
}

// procCPU returns a process's CPU time so far (utime and stime of
// /proc/PID/stat, at 100 ticks a second); 0 where /proc does not tell.
func procCPU(pid int) time.Duration {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(data)
	fields := strings.Fields(s[strings.LastIndex(s, ")")+2:])
	if len(fields) < 13 {
		return 0
	}
	u, _ := strconv.Atoi(fields[11])
	k, _ := strconv.Atoi(fields[12])
	return time.Duration(u+k) * 10 * time.Millisecond
}

// TestClusterScale16 (issue 54): a match of 10,000 Othello games at depth 2
// played by the local pool (one worker per core), then by 16 worker
// processes of one game slot each through one broker process (on this
// machine's cores: the figures are the messaging's cost), the audit at
// its default 2% and off: games per second, the coordinator's CPU time per
// 1,000 results, the broker's peak memory. Figures, not a check: run with
// GAMETUNE_EXPERIMENTS=1 (docs/cluster.md gives them).
func TestClusterScale16(t *testing.T) {
	experiment(t)
	bin := buildTune(t)
	dir := t.TempDir()
	tok := filepath.Join(dir, "token")
	os.WriteFile(tok, []byte("t0ken-for-tests\n"), 0o600)
	addr := freeAddr(t)
	broker := start(t, bin, "broker", "--listen", addr, "--store", filepath.Join(dir, "store"), "--token-file", tok)
	for !strings.Contains(broker.stdout.String(), "listening") {
		time.Sleep(20 * time.Millisecond)
	}
	url := "nats://" + addr
	const pairs = 5000
	match := []string{"match", "--game", "othello", "--pairs", strconv.Itoa(pairs), "--depth", "2", "--a", "default", "--b", "default:full", "--quiet", "--json"}
	timed := func(extra ...string) (time.Duration, time.Duration, string) {
		cmd := exec.Command(bin, append(append([]string{}, match...), extra...)...)
		var out bytes.Buffer
		cmd.Stdout = &out
		start := time.Now()
		if err := cmd.Run(); err != nil {
			t.Fatalf("match %v: %v", extra, err)
		}
		return time.Since(start), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), out.String()
	}
	local, localCPU, want := timed("--workers", "0")
	t.Logf("local pool: %d games in %v: %.1f games/s (CPU %v)", 2*pairs, local.Round(time.Millisecond), float64(2*pairs)/local.Seconds(), localCPU.Round(time.Millisecond))
	for i := range 16 {
		start(t, bin, "worker", "--nats", url, "--token-file", tok, "--workers", "1", "--name", "w"+strconv.Itoa(i), "--cache", filepath.Join(dir, "cache"))
	}
	time.Sleep(2 * time.Second) // the workers connect
	for _, audit := range []string{"2%", "0"} {
		brokerCPU := procCPU(broker.cmd.Process.Pid)
		wall, cpu, got := timed("--workers", "0", "--nats", url, "--token-file", tok, "--audit", audit)
		brokerCPU = procCPU(broker.cmd.Process.Pid) - brokerCPU
		if got != want {
			t.Errorf("audit %s: the match on workers differs from the local one", audit)
		}
		t.Logf("16 workers, audit %s: %d games in %v: %.1f games/s; coordinator CPU %v, %v per 1,000 results; broker CPU %v per 1,000",
			audit, 2*pairs, wall.Round(time.Millisecond), float64(2*pairs)/wall.Seconds(), cpu.Round(time.Millisecond),
			(cpu * 1000 / (2 * pairs)).Round(time.Millisecond), (brokerCPU * 1000 / (2 * pairs)).Round(time.Millisecond))
	}
	t.Logf("broker peak memory: %d MiB", peakRSS(broker.cmd.Process.Pid)/1024)
}
