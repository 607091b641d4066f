package cluster

import (
	"errors"
	"fmt"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// TestDisconnected: a publication that failed because the connection
// dropped (as nats.go fails every pending acknowledgement when it
// reconnects) is published again; any other failure still ends the run.
func TestDisconnected(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nats.ErrDisconnected, true},
		{fmt.Errorf("publish: %w", nats.ErrDisconnected), true},
		{nats.ErrConnectionReconnecting, true},
		{nil, false},
		{nats.ErrPermissionViolation, false},
		{nats.ErrConnectionClosed, false},
		{jetstream.ErrNoStreamResponse, false},
		{errors.New("nats: server is disconnected (a look-alike)"), false},
	} {
		if got := disconnected(c.err); got != c.want {
			t.Errorf("disconnected(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
