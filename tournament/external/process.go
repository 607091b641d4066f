package external

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"time"
)

// quitGrace is how long an engine has to exit after its quit command
// before its process group is killed.
const quitGrace = 500 * time.Millisecond

// process is a running engine: lines in on stdin, lines out of stdout,
// stderr to a log. It runs in its own process group, killed whole on
// close; on Linux the kernel kills it too when gametune dies.
type process struct {
	name  string
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string   // stdout, closed at its end
	done  chan struct{} // closed once the process has been waited for
	quit  chan struct{} // closed by kill: the reader stops handing lines over
	once  sync.Once
	err   error // the exit status, once done is closed
}

// startProcess starts the engine of e, its stderr to log (nil: dropped)
// with each line prefixed by the engine's name.
func startProcess(e *Spec, log io.Writer) (*process, error) {
	cmd := exec.Command(e.Command, e.Args...)
	cmd.Dir = e.Dir
	cmd.SysProcAttr = processAttributes()
	cmd.WaitDelay = time.Second
	if log != nil {
		cmd.Stderr = &prefixWriter{w: log, prefix: e.Name + ": "}
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrSpec, e.Name, unwrapExec(err))
	}
	p := &process{name: e.Name, cmd: cmd, stdin: stdin, lines: make(chan string, 256), done: make(chan struct{}), quit: make(chan struct{})}
	go p.read(stdout)
	return p, nil
}

func (p *process) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	handing := true
	for sc.Scan() {
		if !handing {
			continue
		}
		select {
		case p.lines <- sc.Text():
		case <-p.quit:
			handing = false
		}
	}
	close(p.lines)
	io.Copy(io.Discard, stdout)
	p.err = p.cmd.Wait()
	close(p.done)
}

// send writes lines to the engine; a closed pipe is a crash.
func (p *process) send(lines ...string) error {
	for _, l := range lines {
		if _, err := io.WriteString(p.stdin, l+"\n"); err != nil {
			return p.crashed(fmt.Sprintf("writing %q: %v", l, err))
		}
	}
	return nil
}

// readLine returns the engine's next line, a crash Fault when its output
// ended, a stall Fault after timeout, or ctx's error.
func (p *process) readLine(ctx context.Context, timeout time.Duration, waitingFor string) (string, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case l, ok := <-p.lines:
		if !ok {
			return "", p.crashed("exited while " + waitingFor)
		}
		return l, nil
	case <-t.C:
		return "", stall(fmt.Sprintf("no answer in %v while %s", timeout, waitingFor))
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// crashed is the crash Fault, with the exit status when it is known soon.
func (p *process) crashed(what string) error {
	select {
	case <-p.done:
		if p.err != nil {
			return crash(fmt.Sprintf("%s (%v)", what, p.err))
		}
		return crash(what + " (exit status 0)")
	case <-time.After(quitGrace):
		return crash(what)
	}
}

// close asks the engine to quit (quitLine, if not empty), waits quitGrace
// for it, and kills its process group either way: every process it
// started goes with it. It waits until the process has been reaped.
func (p *process) close(quitLine string) {
	if quitLine != "" {
		p.send(quitLine)
		select {
		case <-p.done:
		case <-time.After(quitGrace):
		}
	}
	p.kill()
	<-p.done
}

// kill kills the process group at once.
func (p *process) kill() {
	p.once.Do(func() {
		close(p.quit)
		p.stdin.Close()
	})
	killGroup(p.cmd.Process)
}

// prefixWriter writes whole lines to w, each after prefix, under a lock
// shared by every engine writing to the same log.
type prefixWriter struct {
	w      io.Writer
	prefix string
	buf    []byte
}

var logMu sync.Mutex

func (pw *prefixWriter) Write(b []byte) (int, error) {
	pw.buf = append(pw.buf, b...)
	logMu.Lock()
	defer logMu.Unlock()
	for {
		i := indexByte(pw.buf, '\n')
		if i < 0 {
			break
		}
		if _, err := fmt.Fprintf(pw.w, "%s%s\n", pw.prefix, pw.buf[:i]); err != nil {
			return len(b), err
		}
		pw.buf = pw.buf[i+1:]
	}
	return len(b), nil
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}
