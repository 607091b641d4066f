package cluster

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// TestAllReadAfterAPurge: results removed from the stream before their
// delivery (a quarantined worker's, purged) do not keep allRead false:
// the consumer's last delivered stream sequence jumps past them, its
// count of deliveries does not, and the runner compares the second with
// what it read. Before, lost jobs waited for ever behind such a purge
// (TestHostileOnDebianNATSServer hung when the flood was not all
// delivered before the flooder's quarantine).
func TestAllReadAfterAPurge(t *testing.T) {
	b := startBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := connect(t, b.URL(), ConnectOptions{})
	st, err := c.JS.CreateStream(ctx, jetstream.StreamConfig{Name: "PURGED", Subjects: []string{"purged.>"}})
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		if _, err := c.JS.Publish(ctx, "purged.flood", []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	cons, err := st.CreateOrUpdateConsumer(ctx,
		jetstream.ConsumerConfig{Durable: "reader", AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{sharedCons: cons, keyedCons: cons, read: map[string]uint64{}}
	batch, err := cons.Fetch(10)
	if err != nil {
		t.Fatal(err)
	}
	for m := range batch.Messages() {
		r.seen(m)
		_ = m.Ack()
	}
	if r.allRead(ctx) {
		t.Fatal("all read with 90 results waiting")
	}
	if err := st.Purge(ctx, jetstream.WithPurgeSubject("purged.flood")); err != nil {
		t.Fatal(err)
	}
	info, err := cons.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !r.allRead(ctx) {
		t.Errorf("not all read after the purge: the consumer delivered %+v, %d pending; read %v",
			info.Delivered, info.NumPending, r.read)
	}
}
