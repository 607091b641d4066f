package cluster

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// Broker is an embedded NATS server with JetStream, its data on disk.
type Broker struct {
	srv *server.Server
}

// BrokerOptions configure a broker. Listen is HOST:PORT (port 0: any free
// one); Store is the directory of JetStream's data; Token is required: it
// is what coordinators (and workers without keys) give. WorkerKeys are
// the public NKeys of workers with keys of their own (ReadWorkerKeys),
// allowed WorkerPermissions only: each publishes results under its
// own key, its name in results. TLSCert and TLSKey, both or neither, are
// PEM files: with them every client must speak TLS.
type BrokerOptions struct {
	Listen     string
	Store      string
	Token      string
	WorkerKeys []string
	TLSCert    string
	TLSKey     string
}

// StartBroker starts a broker and returns once it accepts connections, its
// streams and the workers' consumer created (so that workers with keys of
// their own, which may not create them, can start first).
func StartBroker(o BrokerOptions) (*Broker, error) {
	opts, err := o.serverOptions()
	if err != nil {
		return nil, err
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("cluster: broker: %w", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(15 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("cluster: the broker did not start listening on %s within 15s (is the port free?)", o.Listen)
	}
	b := &Broker{srv: srv}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := Connect(ctx, "", o.Token, ConnectOptions{Name: "tune broker", extra: []nats.Option{nats.InProcessServer(srv)}})
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("cluster: the broker's streams: %w", err)
	}
	c.Close()
	return b, nil
}

func (o BrokerOptions) serverOptions() (*server.Options, error) {
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
	opts := &server.Options{
		ServerName: "gametune-broker", Host: host, Port: port, Authorization: o.Token,
		JetStream: true, StoreDir: o.Store, NoSigs: true, NoLog: true, MaxPayload: MaxMessage + 4096,
	}
	for _, k := range o.WorkerKeys {
		opts.Nkeys = append(opts.Nkeys, &server.NkeyUser{Nkey: k, Permissions: WorkerPermissions(k)})
	}
	if o.TLSCert != "" || o.TLSKey != "" {
		if opts.TLSConfig, err = serverTLS(o.TLSCert, o.TLSKey); err != nil {
			return nil, err
		}
		opts.TLS, opts.TLSTimeout = true, 5
	}
	return opts, nil
}

// URL is the address clients connect to.
func (b *Broker) URL() string { return b.srv.ClientURL() }

// Close stops the broker; what JetStream holds stays on disk.
func (b *Broker) Close() {
	b.srv.Shutdown()
	b.srv.WaitForShutdown()
}
