package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeBadInput: a missing folder, a port in use, a bad token file or
// a non-loopback address without one: a clear message and exit 2.
func TestServeBadInput(t *testing.T) {
	dir := t.TempDir()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	empty := filepath.Join(dir, "empty-token")
	os.WriteFile(empty, nil, 0o600)
	open := filepath.Join(dir, "open-token")
	os.WriteFile(open, []byte("tok"), 0o644)
	os.Chmod(open, 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--runs", filepath.Join(dir, "missing")}, "runs folder does not exist"},
		{[]string{"--runs", dir, "--listen", busy.Addr().String()}, "is in use by another program"},
		{[]string{"--runs", dir, "--token-file", empty}, "is empty"},
		{[]string{"--runs", dir, "--token-file", open}, "readable by everyone"},
		{[]string{"--runs", dir, "--token-file", filepath.Join(dir, "none")}, "token file"},
		{[]string{"--runs", dir, "--listen", "0.0.0.0:0"}, "not a loopback address: give --token-file"},
		{[]string{"--runs", dir, "--listen", "8080"}, "want host:port"},
		{[]string{"--runs", dir, "--poll", "1ms"}, "too short"},
	}
	for _, c := range cases {
		code, _, errOut := tune(t, "", append([]string{"serve"}, c.args...)...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("serve %v: exit %d, %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// TestServeStops: tune serve answers, and ends with status 130 when its
// context is cancelled (Ctrl-C), promptly, with an event stream open.
func TestServeStops(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &syncBuffer{}
	exit := make(chan int, 1)
	go func() {
		exit <- execute(ctx, []string{"serve", "--runs", dir, "--listen", "127.0.0.1:0"}, strings.NewReader(""), out, io.Discard)
	}()
	url := waitServing(t, out)
	resp, err := http.Get(url + "api/runs")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("/api/runs: %d", resp.StatusCode)
	}
	cancel()
	select {
	case code := <-exit:
		if code != exitInterrupted {
			t.Errorf("exit %d, want 130", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("tune serve still running 5 s after Ctrl-C")
	}
}

var servingAt = regexp.MustCompile(`at (http://\S+/)`)

// waitServing waits for serve's first line and returns its address.
func waitServing(t *testing.T, out interface{ String() string }) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if m := servingAt.FindStringSubmatch(out.String()); m != nil {
			return m[1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("tune serve did not start: %q", out.String())
	return ""
}

// TestServeSignal: a real tune serve process, with a browser's event
// stream open, ends with status 130 on SIGINT.
func TestServeSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tune")
	}
	bin := buildTune(t)
	dir := t.TempDir()
	if code, _, errOut := tune(t, "", "run", "--game", "tictactoe", "--depth", "1", "--population", "4", "--generations", "1", "--games", "1", "--yardstick-pairs", "1", "--quiet", "--out", filepath.Join(dir, "r")); code != 0 {
		t.Fatalf("tune run: %s", errOut)
	}
	p := start(t, bin, "serve", "--runs", dir, "--listen", "127.0.0.1:0")
	url := waitServing(t, p.stdout)
	resp, err := http.Get(url + "runs/r/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	p.cmd.Process.Signal(syscall.SIGINT)
	if code := p.exitCode(t, 5*time.Second); code != exitInterrupted {
		t.Errorf("exit %d, want 130; stderr %s", code, p.stderr)
	}
}
