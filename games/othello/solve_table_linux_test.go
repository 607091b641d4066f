package othello

import (
	"testing"
	"unsafe"
)

// TestNewEntriesLargePages: a table of a large page or more starts on a
// large page and has the entries asked for, zeroed; a smaller one is a
// plain slice.
func TestNewEntriesLargePages(t *testing.T) {
	n := 4 * hugePage / int(unsafe.Sizeof(endEntry{}))
	e := newEntries(n)
	if len(e) != n || cap(e) != n {
		t.Fatalf("len %d cap %d, want %d", len(e), cap(e), n)
	}
	if addr := uintptr(unsafe.Pointer(&e[0])); addr%hugePage != 0 {
		t.Errorf("entries at %#x, not on a %d-byte page", addr, hugePage)
	}
	for i := range e {
		if e[i] != (endEntry{}) {
			t.Fatalf("entry %d not zero", i)
		}
	}
	if small := newEntries(16); len(small) != 16 {
		t.Errorf("small table: %d entries, want 16", len(small))
	}
}
