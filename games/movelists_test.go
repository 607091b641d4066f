package games

import (
	"runtime"
	"testing"
)

// TestMoveLists: Get gives a list a ply of the capacity asked for, and lists
// given back are lent again, a garbage collection between (which would
// empty a sync.Pool) notwithstanding: no allocation once warm.
func TestMoveLists(t *testing.T) {
	m := NewMoveLists(40)
	l := m.Get(5)
	if len(*l) != 6 {
		t.Fatalf("Get(5) gives %d lists, want 6 (plies 0 to 5)", len(*l))
	}
	for i, list := range *l {
		if len(list) != 0 || cap(list) != 40 {
			t.Fatalf("list %d has length %d and capacity %d, want 0 and 40", i, len(list), cap(list))
		}
	}
	m.Put(l)
	runtime.GC()
	if again := m.Get(3); again != l {
		t.Fatal("lists given back are not lent again after a collection")
	}
	m.Put(l)
	allocs := testing.AllocsPerRun(100, func() {
		runtime.GC()
		a, b := m.Get(5), m.Get(5)
		m.Put(a)
		m.Put(b)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations a Get and Put in steady state, want 0", allocs)
	}
}
