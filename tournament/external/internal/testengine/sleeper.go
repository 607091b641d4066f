package main

import (
	"os"
	"os/exec"
)

// startSleeper starts a grandchild of the referee that outlives this
// engine unless its process group is killed, or with ownSession one that
// leaves the engine's process group and session (setsid) and so outlives
// a group kill too.
func startSleeper(ownSession bool) {
	cmd := exec.Command("sleep", "3600")
	cmd.Stdout, cmd.Stderr = nil, os.Stderr
	if ownSession {
		cmd.Stderr = nil
		cmd.SysProcAttr = ownSessionAttributes()
	}
	_ = cmd.Start()
}
