package external

import (
	"os"
	"syscall"
)

// processAttributes: Windows has neither process groups as Unix has them
// nor a parent-death signal; an engine's own children may outlive it.
func processAttributes() *syscall.SysProcAttr { return nil }

// endTree kills the engine process.
func endTree(p *os.Process, _ bool, _ <-chan struct{}) { p.Kill() }
