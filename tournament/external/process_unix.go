//go:build unix

package external

import (
	"os"
	"syscall"
)

// killGroup kills the process group an engine (or its supervisor) leads,
// its children in the group included.
func killGroup(p *os.Process) {
	syscall.Kill(-p.Pid, syscall.SIGKILL)
}
