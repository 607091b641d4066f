package cluster

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Broker is an embedded NATS server with JetStream, its data on disk.
type Broker struct {
	srv *server.Server
}

// BrokerOptions configure a broker. Listen is HOST:PORT (port 0: any free
// one); Store is the directory of JetStream's data; Token is required.
type BrokerOptions struct {
	Listen string
	Store  string
	Token  string
}

// StartBroker starts a broker and returns once it accepts connections.
func StartBroker(o BrokerOptions) (*Broker, error) {
	host, portText, err := net.SplitHostPort(o.Listen)
	if err != nil {
		return nil, fmt.Errorf("cluster: --listen %q: want HOST:PORT: %w", o.Listen, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 {
		return nil, fmt.Errorf("cluster: --listen %q: port %q is not 0 to 65535", o.Listen, portText)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	if o.Store == "" {
		return nil, errors.New("cluster: the broker needs a store directory (--store DIR)")
	}
	if o.Token == "" {
		return nil, errors.New("cluster: the broker needs a token (--token-file F): no access is anonymous")
	}
	srv, err := server.NewServer(&server.Options{
		ServerName: "gametune-broker", Host: host, Port: port, Authorization: o.Token,
		JetStream: true, StoreDir: o.Store, NoSigs: true, NoLog: true, MaxPayload: MaxMessage + 4096,
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: broker: %w", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(15 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("cluster: the broker did not start listening on %s within 15s (is the port free?)", o.Listen)
	}
	return &Broker{srv: srv}, nil
}

// URL is the address clients connect to.
func (b *Broker) URL() string { return b.srv.ClientURL() }

// Close stops the broker; what JetStream holds stays on disk.
func (b *Broker) Close() {
	b.srv.Shutdown()
	b.srv.WaitForShutdown()
}
