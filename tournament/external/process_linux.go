package external

import "syscall"

// processAttributes puts an engine in its own process group (killed whole
// on close, and out of reach of the terminal's Ctrl-C, which gametune
// handles) and has the kernel kill it when gametune dies.
func processAttributes() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
