//go:build unix && !linux

package external

import "syscall"

// processAttributes puts an engine in its own process group, killed whole
// on close. Only Linux has a parent-death signal.
func processAttributes() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
