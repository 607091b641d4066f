package external

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

const (
	// quitGrace is how long an engine has to exit after its quit command
	// before its process tree is ended.
	quitGrace = 500 * time.Millisecond
	// outputGrace is how long the engine's stdout is read after it exited
	// (a child of it may hold the pipe open): then reading stops.
	outputGrace = time.Second
	// MaxLine is the longest line an engine may write to its stdout; a
	// longer one is a crash Fault ("line longer than MaxLine bytes"), read
	// no further.
	MaxLine = 1 << 20
)

// process is a running engine: lines in on stdin, lines out of stdout,
// stderr to a log, bounded (stderrLog). On Linux it runs under a
// supervisor (supervise_linux.go) that ends its whole process tree when
// it exits, when it is stopped or when gametune dies; elsewhere in its own
// process group, killed whole on close.
type process struct {
	name       string
	cmd        *exec.Cmd
	supervised bool
	stdin      io.WriteCloser
	stderr     *stderrLog
	lines      chan string   // stdout, closed at its end
	done       chan struct{} // closed once the process has been waited for
	quit       chan struct{} // closed by kill: the reader stops handing lines over
	once       sync.Once
	tooLong    bool  // stdout held a line longer than MaxLine (set before lines is closed)
	err        error // the exit status, once done is closed
}

// startProcess starts the engine of e, its stderr to log (nil: dropped)
// with each line prefixed by the engine's name.
func startProcess(e *Spec, log io.Writer) (*process, error) {
	direct := exec.Command(e.Command, e.Args...)
	if direct.Err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrSpec, e.Name, unwrapExec(direct.Err))
	}
	cmd, supervised := supervisedCommand(direct)
	cmd.Dir = e.Dir
	cmd.WaitDelay = time.Second
	p := &process{name: e.Name, cmd: cmd, supervised: supervised, stderr: newStderrLog(log, e.Name),
		lines: make(chan string, 256), done: make(chan struct{}), quit: make(chan struct{})}
	cmd.Stderr = p.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, w, err := os.Pipe()
	if err != nil {
		stdin.Close()
		return nil, err
	}
	cmd.Stdout = w
	err = cmd.Start()
	w.Close()
	if err != nil {
		stdin.Close()
		stdout.Close()
		return nil, fmt.Errorf("%w: %s: %v", ErrSpec, e.Name, unwrapExec(err))
	}
	p.stdin = stdin
	read := make(chan struct{})
	go func() {
		p.read(stdout)
		close(read)
	}()
	go p.wait(stdout, read)
	return p, nil
}

// read hands stdout's lines over until its end (or a line longer than
// MaxLine), then drains it.
func (p *process) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
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
	p.tooLong = errors.Is(sc.Err(), bufio.ErrTooLong)
	close(p.lines)
	io.Copy(io.Discard, stdout)
}

// wait waits for the process, ends what is left of its process group
// (endGroupOnExit), gives the reader outputGrace to reach the end of stdout
// (a process the engine left may hold it open), and closes done.
func (p *process) wait(stdout *os.File, read <-chan struct{}) {
	endGroupOnExit(p.cmd.Process)
	p.err = p.cmd.Wait()
	select {
	case <-read:
	case <-time.After(outputGrace):
		stdout.SetReadDeadline(time.Now())
		<-read
	}
	stdout.Close()
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
// ended (or held a line longer than MaxLine), a stall Fault after
// deadline, or ctx's error. budget is the time the engine was given,
// which the stall names.
func (p *process) readLine(ctx context.Context, deadline time.Time, budget time.Duration, waitingFor string) (string, error) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case l, ok := <-p.lines:
		switch {
		case ok:
			return l, nil
		case p.tooLong:
			return "", crash(fmt.Sprintf("line longer than %d bytes while %s", MaxLine, waitingFor))
		}
		return "", p.crashed("exited while " + waitingFor)
	case <-t.C:
		return "", stall(fmt.Sprintf("no answer in %v while %s", budget, waitingFor))
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
// for it, and ends its process tree either way: every process it started
// goes with it. It waits until the process has been reaped.
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

// kill ends the process tree at once.
func (p *process) kill() {
	p.once.Do(func() {
		close(p.quit)
		p.stdin.Close()
	})
	endTree(p.cmd.Process, p.supervised, p.done)
}
