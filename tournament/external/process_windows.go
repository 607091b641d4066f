package external

import (
	"os"
	"syscall"
)

// processAttributes: Windows has neither process groups as Unix has them
// nor a parent-death signal; an engine's own children may outlive it.
func processAttributes() *syscall.SysProcAttr { return nil }

// killGroup kills the engine process.
func killGroup(p *os.Process) { p.Kill() }
