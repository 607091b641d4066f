//go:build unix

package main

import "syscall"

// ownSessionAttributes start a process in a session of its own (setsid).
func ownSessionAttributes() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
