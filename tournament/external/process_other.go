//go:build !linux

package external

import (
	"os"
	"os/exec"
)

// supervisedCommand runs the engine itself: only Linux has a supervisor
// (it needs a child subreaper). On Unix the engine leads its own process
// group, killed whole on close; a child that leaves the group, or any
// child once gametune is killed, may outlive it.
func supervisedCommand(direct *exec.Cmd) (*exec.Cmd, bool) {
	direct.SysProcAttr = processAttributes()
	return direct, false
}

// endGroupOnExit does nothing outside Linux: the group is killed on close.
func endGroupOnExit(*os.Process) {}
