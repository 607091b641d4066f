//go:build !linux

package othello

// newEntries returns n zeroed table entries.
func newEntries(n int) []endEntry { return make([]endEntry, n) }
