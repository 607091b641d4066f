package external

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// On Linux an engine runs under a supervisor: gametune's own binary
// started again (/proc/self/exe) with supervisorVariable set to
// gametune's process id, which this package's init recognises. The
// supervisor makes itself a child subreaper (prctl
// PR_SET_CHILD_SUBREAPER), so that every process the engine starts and
// leaves behind, even in a session of its own after a double fork, is
// re-parented to it rather than to init; it starts the engine on the same
// stdin, stdout and stderr, and when the engine exits, when gametune asks
// it to stop (SIGTERM) or when gametune dies (its parent-death signal is
// SIGTERM) it kills every process below it and exits.
//
// What remains possible: a process the engine's tree hands to a daemon
// that is not its descendant (systemd-run, at, a login over ssh), and any
// descendant once the supervisor itself is killed with SIGKILL (the
// engine then dies by its own parent-death signal; its children are
// orphaned to init).
const supervisorVariable = "GAMETUNE_ENGINE_SUPERVISOR"

// Timings of the supervisor.
const (
	// superviseSweep bounds the supervisor's killing of what is left below
	// it (a tree that forks faster than it is killed).
	superviseSweep = 2 * time.Second
	// stopGrace is how long gametune waits for a supervisor asked to stop
	// before it kills the supervisor's process group.
	stopGrace = 2 * time.Second
)

func init() {
	if os.Getenv(supervisorVariable) != "" {
		os.Exit(supervise(os.Args[1:]))
	}
}

// supervisedCommand returns the supervisor of the engine direct would
// run: in its own process group, told by the kernel when gametune dies.
func supervisedCommand(direct *exec.Cmd) (*exec.Cmd, bool) {
	cmd := exec.Command("/proc/self/exe", append([]string{direct.Path}, direct.Args[1:]...)...)
	cmd.Env = append(withoutVariable(os.Environ()), supervisorVariable+"="+strconv.Itoa(os.Getpid()))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	return cmd, true
}

// endTree ends an engine's process tree: a supervisor is asked to (and
// its process group killed if it has not ended after stopGrace), an
// engine without one has its process group killed.
func endTree(p *os.Process, supervised bool, done <-chan struct{}) {
	if !supervised {
		killGroup(p)
		return
	}
	p.Signal(syscall.SIGTERM)
	go func() {
		select {
		case <-done:
		case <-time.After(stopGrace):
			killGroup(p)
		}
	}()
}

// supervise runs the engine args (its path, then its arguments) as the
// supervisor and returns the supervisor's exit status: the engine's.
func supervise(args []string) int {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	if os.Getenv(supervisorVariable) != strconv.Itoa(os.Getppid()) {
		return 1 // gametune died before the signal was set up
	}
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "gametune's engine supervisor: no engine to run")
		return 2
	}
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		fmt.Fprintf(os.Stderr, "gametune's engine supervisor: cannot become a child subreaper: %v\n", errno)
	}
	engine := exec.Command(args[0], args[1:]...)
	engine.Stdin, engine.Stdout, engine.Stderr = os.Stdin, os.Stdout, os.Stderr
	engine.Env = withoutVariable(os.Environ())
	engine.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := engine.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "cannot start %s: %v\n", args[0], unwrapExec(err))
		return 127
	}
	releaseStdio()
	exited := make(chan struct{})
	go func() {
		engine.Wait()
		close(exited)
	}()
	select {
	case <-exited:
		endDescendants()
		return exitLike(engine.ProcessState)
	case <-stop:
		endDescendants()
		return 128 + int(syscall.SIGTERM)
	}
}

const prSetChildSubreaper = 36 // PR_SET_CHILD_SUBREAPER of <linux/prctl.h>

// releaseStdio points the supervisor's own stdin and stdout at /dev/null,
// so that the engine's end closes the pipes gametune reads (stderr stays
// for the supervisor's messages).
func releaseStdio() {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return
	}
	syscall.Dup3(int(null.Fd()), 0, 0)
	syscall.Dup3(int(null.Fd()), 1, 0)
	null.Close()
}

// exitLike is the exit status that tells gametune how the engine ended:
// its own; killed by SIGKILL, the supervisor kills itself so too; killed
// by another signal, the supervisor says so on stderr and exits with 128
// and the signal's number, as a shell does.
func exitLike(st *os.ProcessState) int {
	if st == nil {
		return 1
	}
	ws, ok := st.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return st.ExitCode()
	}
	if ws.Signal() == syscall.SIGKILL {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		time.Sleep(time.Second)
	}
	fmt.Fprintf(os.Stderr, "the engine was killed by a signal: %v\n", ws.Signal())
	return 128 + int(ws.Signal())
}

// endDescendants kills every process below the supervisor (the engine's
// tree, and what it left behind, re-parented here) and reaps them, until
// none is left or superviseSweep has passed.
func endDescendants() {
	deadline := time.Now().Add(superviseSweep)
	for {
		live := descendants(os.Getpid())
		for _, pid := range live {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		reap()
		if len(live) == 0 || time.Now().After(deadline) {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// reap collects the exit status of every child that has ended.
func reap() {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if pid <= 0 || err != nil {
			return
		}
	}
}

// descendants lists the live processes below root, from /proc.
func descendants(root int) []int {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(stat)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 2 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if ppid, err := strconv.Atoi(f[1]); err == nil {
			children[ppid] = append(children[ppid], pid)
		}
	}
	var out []int
	for queue := children[root]; len(queue) > 0; {
		pid := queue[0]
		queue = append(queue[1:], children[pid]...)
		out = append(out, pid)
	}
	return out
}

// withoutVariable is env without supervisorVariable.
func withoutVariable(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, supervisorVariable+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// endGroupOnExit waits until the process (an engine's supervisor) has
// exited, without reaping it, and kills what is left of its process group:
// the group's id stays its own until it is reaped, so the kill cannot reach
// another group. A supervisor killed before it could sweep (a SIGTERM that
// comes as it starts, before it handles the signal) so still takes the
// engine's tree with it, but for processes that left the group.
func endGroupOnExit(p *os.Process) {
	const (
		pPID    = 1         // P_PID of <sys/wait.h>
		wExited = 4         // WEXITED
		wNoWait = 0x1000000 // WNOWAIT
	)
	var info [128]byte // siginfo_t
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(p.Pid), uintptr(unsafe.Pointer(&info[0])), wExited|wNoWait, 0, 0)
		if errno != syscall.EINTR {
			break
		}
	}
	killGroup(p)
}
