//go:build !linux

package engine

// TotalMemory is the machine's physical memory in bytes: unknown here (0),
// so only MaxTableMiB bounds a table.
func TotalMemory() uint64 { return 0 }
