package engine

import (
	"strings"
	"testing"
)

// TestCheckTableMiB: the bounds of a table, and a quarter of the memory
// when it is known.
func TestCheckTableMiB(t *testing.T) {
	const gib = 1 << 30
	for _, tt := range []struct {
		mib    int
		memory uint64
		err    string // "" for accepted
	}{
		{1, 0, ""},
		{MaxTableMiB, 0, ""},
		{0, 0, "hash 0: want 1 to 65536 MiB"},
		{MaxTableMiB + 1, 0, "hash 65537: want 1 to 65536 MiB"},
		{1024, 4 * gib, ""},
		{1025, 4 * gib, "hash 1025: more than a quarter of this machine's 4096 MiB of memory; want at most 1024 MiB"},
	} {
		err := CheckTableMiB(tt.mib, tt.memory)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("CheckTableMiB(%d, %d) = %v, want %q", tt.mib, tt.memory, err, tt.err)
		}
	}
}

// TestLargestTableMiB: the largest table CheckTableMiB accepts.
func TestLargestTableMiB(t *testing.T) {
	for _, tt := range []struct {
		memory uint64
		want   int
	}{{0, MaxTableMiB}, {4 << 30, 1024}, {1 << 20, 1}, {1 << 40, MaxTableMiB}} {
		if got := LargestTableMiB(tt.memory); got != tt.want {
			t.Errorf("LargestTableMiB(%d) = %d, want %d", tt.memory, got, tt.want)
		}
		if err := CheckTableMiB(LargestTableMiB(tt.memory), tt.memory); err != nil && tt.memory >= 4<<20 {
			t.Errorf("the largest table of %d bytes is refused: %v", tt.memory, err)
		}
	}
}
