//go:build !linux

package main

// totalMemory is the machine's physical memory in bytes: unknown here, so
// only the engine's own bound applies.
func totalMemory() uint64 { return 0 }
