//go:build unix && !linux

package external

import (
	"os"
	"syscall"
)

// processAttributes puts an engine in its own process group, killed whole
// on close. Only Linux has a parent-death signal.
func processAttributes() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// endTree kills the engine's process group.
func endTree(p *os.Process, _ bool, _ <-chan struct{}) { killGroup(p) }
