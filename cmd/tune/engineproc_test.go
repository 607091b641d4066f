package main

import (
	"bufio"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gametune/gametune/protocol/gtp"
)

// engineProcess is an engine started as a real process, driven line by line
// through its standard input and output.
type engineProcess struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	reader *bufio.Reader // for GTP responses
	exited chan error
	stderr *syncBuffer // what gametune's own engine wrote there, for a failure's message; nil for others
}

// hung is the failure message's tail for an engine that stopped answering:
// a Go engine (gametune's own) is sent SIGQUIT, and writes its goroutines'
// stacks to its standard error before it exits, so that a hang seen once on
// a loaded machine can be read afterwards.
func (p *engineProcess) hung() string {
	if p.stderr == nil {
		return "" // another program's: its standard error is not kept
	}
	p.cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case err := <-p.exited:
		p.exited <- err
	case <-time.After(5 * time.Second):
	}
	return "\nthe engine's standard error after SIGQUIT:\n" + p.stderr.String()
}

// startEngine starts name with args; the process is killed when the test
// ends if it is still running. Its output is read line by line (expect),
// or with gtpMode as GTP responses (gtp).
func startEngine(t *testing.T, gtpMode bool, name string, args ...string) *engineProcess {
	t.Helper()
	return startProcess(t, gtpMode, false, name, args...)
}

// startProcess is startEngine that, with keepStderr, keeps what the engine
// writes on its standard error for hung (gametune's own engine; the others'
// goes where it went before, nowhere).
func startProcess(t *testing.T, gtpMode, keepStderr bool, name string, args ...string) *engineProcess {
	t.Helper()
	cmd := exec.Command(name, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errOut *syncBuffer
	if keepStderr {
		errOut = &syncBuffer{}
		cmd.Stderr = errOut
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &engineProcess{t: t, cmd: cmd, stdin: stdin, lines: make(chan string, 1024), exited: make(chan error, 1), stderr: errOut}
	if gtpMode {
		p.reader = bufio.NewReader(stdout)
		go func() {
			p.exited <- cmd.Wait()
		}()
	} else {
		go func() {
			sc := bufio.NewScanner(stdout)
			sc.Buffer(make([]byte, 1<<16), 1<<20)
			for sc.Scan() {
				p.lines <- sc.Text()
			}
			close(p.lines)
			p.exited <- cmd.Wait()
		}()
	}
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-p.exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-p.exited
		}
	})
	return p
}

func startTuneEngine(t *testing.T, gtpMode bool, args ...string) *engineProcess {
	t.Helper()
	return startProcess(t, gtpMode, true, buildTune(t), append([]string{"engine"}, args...)...)
}

func (p *engineProcess) send(lines ...string) {
	p.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(p.stdin, l+"\n"); err != nil {
			p.t.Fatalf("writing %q: %v", l, err)
		}
	}
}

// expect reads lines until one starts with prefix and returns it, failing
// after timeout or at the end of the output. Lines read on the way are
// returned too.
func (p *engineProcess) expect(prefix string, timeout time.Duration) (string, []string) {
	p.t.Helper()
	var seen []string
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				p.t.Fatalf("the engine ended before %q; it wrote %q", prefix, seen)
			}
			if strings.HasPrefix(l, prefix) {
				return l, seen
			}
			seen = append(seen, l)
		case <-deadline:
			p.t.Fatalf("no %q within %v; the engine wrote %q%s", prefix, timeout, seen, p.hung())
		}
	}
}

// gtp sends one GTP command and reads its response (the line channel is
// not used by GTP tests).
func (p *engineProcess) gtp(command string, timeout time.Duration) gtp.Response {
	p.t.Helper()
	p.send(command)
	type answer struct {
		r   gtp.Response
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		r, err := gtp.ReadResponse(p.reader)
		ch <- answer{r, err}
	}()
	select {
	case a := <-ch:
		if a.err != nil {
			p.t.Fatalf("%s: %v", command, a.err)
		}
		return a.r
	case <-time.After(timeout):
		p.t.Fatalf("%s: no response within %v", command, timeout)
	}
	return gtp.Response{}
}

// closeAndWait closes standard input and waits for a clean exit.
func (p *engineProcess) closeAndWait(timeout time.Duration) {
	p.t.Helper()
	p.stdin.Close()
	select {
	case err := <-p.exited:
		if err != nil {
			p.t.Fatalf("after the end of its input the engine exited with %v", err)
		}
		p.exited <- nil
	case <-time.After(timeout):
		p.t.Fatalf("the engine did not exit within %v of the end of its input", timeout)
	}
}
