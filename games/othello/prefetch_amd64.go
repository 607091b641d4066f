//go:build !purego

package othello

// prefetch asks the processor to bring the cache line at addr in
// (PREFETCHT0) without waiting for it (prefetch_amd64.s).
//
//go:noescape
func prefetch(addr *endEntry)
