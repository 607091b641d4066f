package tournament

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/games/all"
)

// TestRandomOpeningBatch: batch 0 of the stream is RandomOpenings' draw;
// later batches are drawn afresh from their own generators (othello
// random:8: each batch holds 64 balanced openings, mostly new), each
// the same whenever it is drawn and whatever was drawn before; a batch
// number out of range is refused with the range accepted.
func TestRandomOpeningBatch(t *testing.T) {
	g, _ := all.Find("othello")
	ctx := context.Background()
	first, err := RandomOpenings(ctx, g, "random:8", 7)
	if err != nil {
		t.Fatal(err)
	}
	zero, err := RandomOpeningBatch(ctx, g, "random:8", 7, 0)
	if err != nil || !reflect.DeepEqual(zero, first) {
		t.Fatalf("batch 0 is not RandomOpenings' draw (%v)", err)
	}
	seen := map[string]bool{}
	for _, op := range first {
		seen[op] = true
	}
	began := time.Now()
	for b := 3; b >= 1; b-- { // out of order: a batch depends on its number alone
		batch, err := RandomOpeningBatch(ctx, g, "random:8", 7, b)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := RandomOpeningBatch(ctx, g, "random:8", 7, b)
		if len(batch) != RandomOpeningCount || !reflect.DeepEqual(batch, again) {
			t.Fatalf("batch %d: %d openings, drawn twice the same: %v", b, len(batch), reflect.DeepEqual(batch, again))
		}
		fresh := 0
		for _, op := range batch {
			if _, err := ParseOpening(g, op); err != nil {
				t.Fatalf("batch %d: opening %q: %v", b, op, err)
			}
			if !seen[op] {
				fresh++
			}
			seen[op] = true
		}
		if fresh < RandomOpeningCount*3/4 {
			t.Errorf("batch %d: only %d of %d openings are new", b, fresh, len(batch))
		}
	}
	t.Logf("six othello random:8 batches in %v", time.Since(began).Round(time.Millisecond))
	for _, b := range []int{-1, MaxOpeningBatch + 1} {
		if _, err := RandomOpeningBatch(ctx, g, "random:8", 7, b); err == nil || !strings.Contains(err.Error(), "want 0 to") {
			t.Errorf("batch %d: %v, want a refusal naming the range", b, err)
		}
	}
	if _, err := RandomOpeningBatch(ctx, g, "random:x", 7, 1); err == nil || !strings.Contains(err.Error(), "random:N") {
		t.Errorf("random:x: %v", err)
	}
}
