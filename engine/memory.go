package engine

import "fmt"

// CheckTableMiB reports whether a transposition table of mib MiB may be
// allocated on a machine of memory bytes (0: unknown): 1 to MaxTableMiB,
// and at most a quarter of the memory. The table is allocated at once, so
// a table the machine cannot hold would end the process out of memory
// instead of failing with an error. Its message starts "hash MIB:" and says
// what is accepted.
func CheckTableMiB(mib int, memory uint64) error {
	if mib < 1 || mib > MaxTableMiB {
		return fmt.Errorf("hash %d: want 1 to %d MiB", mib, MaxTableMiB)
	}
	if memory > 0 && uint64(mib)<<20 > memory/4 {
		return fmt.Errorf("hash %d: more than a quarter of this machine's %d MiB of memory; want at most %d MiB", mib, memory>>20, memory>>22)
	}
	return nil
}

// LargestTableMiB is the largest table CheckTableMiB accepts on a machine
// of memory bytes (0: unknown), and at least 1.
func LargestTableMiB(memory uint64) int {
	n := uint64(MaxTableMiB)
	if memory > 0 {
		n = min(n, memory>>22)
	}
	return int(max(n, 1))
}
