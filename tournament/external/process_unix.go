//go:build unix

package external

import (
	"os"
	"syscall"
)

// killGroup kills the process group an engine leads (processAttributes
// made it one), its children included.
func killGroup(p *os.Process) {
	syscall.Kill(-p.Pid, syscall.SIGKILL)
}
