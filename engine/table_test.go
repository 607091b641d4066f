package engine

import (
	"testing"
	"unsafe"
)

// TestTableClear: Clear empties the table every time, through the wipe
// that comes when the ages run out; slots written after a Clear are found.
func TestTableClear(t *testing.T) {
	tb, err := NewTable(1)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 600; i++ {
		key := uint64(i)*0x9E3779B97F4A7C15 | 1
		tb.store(key, 7, int32(i), 3, boundExact)
		tb.store(key+uint64(len(tb.buckets)), 8, 0, 1, boundLower) // same bucket, second slot
		if e, ok := tb.probe(key); !ok || e.score != int32(i) || e.move != 7 {
			t.Fatalf("call %d: stored slot not found (%+v, %v)", i, e, ok)
		}
		if _, ok := tb.probe(key + uint64(len(tb.buckets))); !ok {
			t.Fatalf("call %d: second slot not found", i)
		}
		tb.Clear()
		for _, k := range []uint64{key, key + uint64(len(tb.buckets))} {
			if e, ok := tb.probe(k); ok {
				t.Fatalf("after Clear %d: found %+v", i, e)
			}
		}
		if i > 0 {
			if e, ok := tb.probe(key - 0x9E3779B97F4A7C15); ok {
				t.Fatalf("after Clear %d: the previous game's slot is back: %+v", i, e)
			}
		}
	}
}

// BenchmarkTableClear clears tables of 2 MiB (what each tuning worker
// uses) and 16 MiB once a game.
func BenchmarkTableClear(b *testing.B) {
	for _, mib := range []int{2, 16} {
		b.Run(map[int]string{2: "MiB=2", 16: "MiB=16"}[mib], func(b *testing.B) {
			tb, _ := NewTable(mib)
			for b.Loop() {
				tb.Clear()
			}
		})
	}
}

// TestTableLayout: a bucket is one cache line and the array starts on one,
// so that a probe touches a single line; a table never exceeds its size,
// and a power-of-two size is used whole (the bucket counts, and so the
// searches, of the sizes in use are those of the packed 48-byte layout).
func TestTableLayout(t *testing.T) {
	if bucketSize != 64 {
		t.Fatalf("a bucket takes %d bytes, want 64", bucketSize)
	}
	for _, mib := range []int{1, 2, 3, 16, 24} {
		tb, err := NewTable(mib)
		if err != nil {
			t.Fatal(err)
		}
		if addr := uintptr(unsafe.Pointer(&tb.buckets[0])); addr%64 != 0 {
			t.Errorf("%d MiB: buckets start at %#x, not on a cache line", mib, addr)
		}
		size := len(tb.buckets) * bucketSize
		if size > mib<<20 || size*2 <= mib<<20 {
			t.Errorf("%d MiB: %d bytes of buckets", mib, size)
		}
		if mib&(mib-1) == 0 && size != mib<<20 {
			t.Errorf("%d MiB: %d bytes of buckets, want all of it", mib, size)
		}
	}
}
