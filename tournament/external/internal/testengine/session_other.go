//go:build !unix

package main

import "syscall"

// ownSessionAttributes: only Unix has sessions.
func ownSessionAttributes() *syscall.SysProcAttr { return nil }
