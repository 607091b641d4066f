//go:build !amd64 || purego

package othello

// prefetch does nothing where no assembly brings cache lines in.
func prefetch(*endEntry) {}
