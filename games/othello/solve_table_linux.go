package othello

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of the processor's large pages on Linux (x86-64
// and arm64 with 4 KiB base pages).
const hugePage = 2 << 20

// newEntries returns n zeroed table entries. From hugePage up they start
// on a large page and are marked for large pages (madvise MADV_HUGEPAGE):
// a probe of a large table then misses the processor's page cache (TLB)
// far less often, a walk of the page tables a probe otherwise. Where the
// system declines, the table works on small pages.
func newEntries(n int) []endEntry {
	size := n * int(unsafe.Sizeof(endEntry{}))
	if !hugeTables || size < hugePage {
		return make([]endEntry, n)
	}
	per := hugePage / int(unsafe.Sizeof(endEntry{}))
	buf := make([]endEntry, n+per)
	off := 0
	if r := int(uintptr(unsafe.Pointer(&buf[0])) % hugePage); r != 0 {
		off = (hugePage - r) / int(unsafe.Sizeof(endEntry{}))
	}
	entries := buf[off : off+n : off+n]
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Pointer(&entries[0])), size), syscall.MADV_HUGEPAGE)
	return entries
}
