package cluster

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
)

// TestWorkerKeys: a worker with a key of its own, listed by the broker,
// plays a coordinator's games under its public key; with it a client can
// neither create a stream, nor publish a job, nor read results (permission
// errors); a key the broker does not list is refused; the token still
// works.
func TestWorkerKeys(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "worker.nk")
	pub, err := NewWorkerKey(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewWorkerKey(keyFile); err == nil {
		t.Error("a worker key was overwritten")
	}
	if st, err := os.Stat(keyFile); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the key file: %v, %v", st.Mode(), err)
	}
	listFile := filepath.Join(dir, "workers")
	os.WriteFile(listFile, []byte("# the workers\n"+pub+" worker-1\n\n"), 0o644)
	keys, err := ReadWorkerKeys(listFile)
	if err != nil || len(keys) != 1 || keys[0] != pub {
		t.Fatalf("ReadWorkerKeys: %v, %v", keys, err)
	}
	b, err := StartBroker(BrokerOptions{Listen: "127.0.0.1:0", Store: t.TempDir(), Token: testToken, WorkerKeys: keys})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	// The worker plays a coordinator's games.
	seed, err := ReadWorkerKey(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	wc, err := Connect(ctx, b.URL(), "", ConnectOptions{Name: "keyed", WorkerKey: seed})
	if err != nil {
		t.Fatalf("a worker with its key: %v", err)
	}
	defer wc.Close()
	w, err := NewWorker(ctx, wc, WorkerOptions{Name: "keyed"})
	if err != nil {
		t.Fatal(err)
	}
	wctx, stop := context.WithCancel(ctx)
	wdone := make(chan error, 1)
	go func() { wdone <- w.Run(wctx) }()
	r, err := NewRunner(ctx, connect(t, b.URL(), ConnectOptions{}), RunnerOptions{Run: "keyed", Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	// Its name in results is its key, which the broker binds to it, not
	// the name it gives.
	if got := collect(t, r, matchSpecs(t, 1)); len(got) != 2 || r.GamesByWorker()[pub] != 2 || w.Name() != pub {
		t.Errorf("%d games, by worker %v", len(got), r.GamesByWorker())
	}
	r.Close()
	stop()
	if err := <-wdone; err != nil {
		t.Fatal(err)
	}

	// What a worker may not do.
	kp, _ := nkeys.FromSeed(seed)
	violations := make(chan error, 16)
	nc, err := nats.Connect(b.URL(), nats.Nkey(pub, kp.Sign), nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		violations <- err
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	expectViolation := func(what, subject string) {
		t.Helper()
		select {
		case err := <-violations:
			if !errors.Is(err, nats.ErrPermissionViolation) || !strings.Contains(err.Error(), subject) {
				t.Errorf("%s: %v, want a permissions violation on %s", what, err, subject)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("%s: no permissions violation", what)
		}
	}
	js, _ := jetstream.New(nc)
	cctx, ccancel := context.WithTimeout(ctx, 2*time.Second)
	if _, err := js.CreateStream(cctx, jetstream.StreamConfig{Name: "EVIL", Subjects: []string{"evil.>"}}); err == nil {
		t.Error("a worker created a stream")
	}
	ccancel()
	expectViolation("creating a stream", "$JS.API.STREAM.CREATE.EVIL")
	nc.Publish(jobsPrefix+"keyed", []byte(`{"v":1}`))
	nc.Flush()
	expectViolation("publishing a job", jobsPrefix+"keyed")
	nc.Subscribe(resultsPrefix+"keyed", func(*nats.Msg) {})
	nc.Flush()
	expectViolation("reading results", resultsPrefix+"keyed")
	if n, _ := wc.jobs.Info(ctx); n.State.Msgs != 0 {
		t.Errorf("%d jobs in the stream after the worker's publish", n.State.Msgs)
	}

	// A key the broker does not list; the token.
	other := filepath.Join(dir, "other.nk")
	if _, err := NewWorkerKey(other); err != nil {
		t.Fatal(err)
	}
	otherSeed, _ := ReadWorkerKey(other)
	if _, err := Connect(ctx, b.URL(), "", ConnectOptions{WorkerKey: otherSeed}); !errors.Is(err, ErrUnauthorized) {
		t.Errorf("an unlisted key: %v", err)
	}
	if _, err := Connect(ctx, b.URL(), "wrong", ConnectOptions{}); !errors.Is(err, ErrUnauthorized) {
		t.Errorf("a wrong token: %v", err)
	}
}

func TestWorkerKeyFilesRefused(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct{ content, want string }{
		"a token":      {"not-a-seed", "not an NKey seed"},
		"a public key": {"UDXU4RCSJNZOIQHZNWXHXORDPRTGNJAHAHFRGZNEEJCPQTT2M7NLCNF4", "not an NKey seed"},
	} {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		os.WriteFile(p, []byte(c.content), 0o600)
		if _, err := ReadWorkerKey(p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
	list := filepath.Join(dir, "list")
	os.WriteFile(list, []byte("# none\n"), 0o644)
	if _, err := ReadWorkerKeys(list); err == nil || !strings.Contains(err.Error(), "lists no key") {
		t.Errorf("an empty list: %v", err)
	}
	os.WriteFile(list, []byte("SUAB\n"), 0o644)
	if _, err := ReadWorkerKeys(list); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("a seed in the list: %v", err)
	}
}

// selfSigned writes a self-signed certificate for 127.0.0.1 and its key
// into dir, and returns their paths.
func selfSigned(t *testing.T, dir string) (cert, key string) {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "gametune test broker"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA: true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	cert, key = filepath.Join(dir, "broker.pem"), filepath.Join(dir, "broker-key.pem")
	os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
	os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
	return cert, key
}

// TestTLSBroker: a broker with a certificate made now plays a match over
// TLS with a client that trusts it; a client that does not is refused with
// a message naming --tls-ca; a key file others can read is refused.
func TestTLSBroker(t *testing.T) {
	dir := t.TempDir()
	cert, key := selfSigned(t, dir)
	b, err := StartBroker(BrokerOptions{Listen: "127.0.0.1:0", Store: t.TempDir(), Token: testToken, TLSCert: cert, TLSKey: key})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := Connect(ctx, b.URL(), testToken, ConnectOptions{TLSCA: cert})
	if err != nil {
		t.Fatalf("with the CA: %v", err)
	}
	defer c.Close()
	if st, err := c.NC.TLSConnectionState(); err != nil || !st.HandshakeComplete {
		t.Fatalf("not TLS: %v", err)
	}
	r, err := NewRunner(ctx, c, RunnerOptions{Run: "tls", Workers: 1, Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := collect(t, r, matchSpecs(t, 1)); len(got) != 2 {
		t.Errorf("%d games over TLS", len(got))
	}
	r.Close()
	if _, err := Connect(ctx, b.URL(), testToken, ConnectOptions{}); err == nil || !strings.Contains(err.Error(), "--tls-ca") {
		t.Errorf("without the CA: %v", err)
	}
	if nc, err := nats.Connect(b.URL(), nats.Token(testToken), nats.MaxReconnects(0), nats.Timeout(2*time.Second)); err == nil {
		nc.Close()
		t.Error("a plain connection was let in")
	}
	os.Chmod(key, 0o644)
	if _, err := StartBroker(BrokerOptions{Listen: "127.0.0.1:0", Store: t.TempDir(), Token: testToken, TLSCert: cert, TLSKey: key}); err == nil || !strings.Contains(err.Error(), "readable by everyone") {
		t.Errorf("a key readable by everyone: %v", err)
	}
	if _, err := StartBroker(BrokerOptions{Listen: "127.0.0.1:0", Store: t.TempDir(), Token: testToken, TLSCert: cert}); err == nil || !strings.Contains(err.Error(), "both --tls-cert and --tls-key") {
		t.Errorf("a certificate without its key: %v", err)
	}
}
