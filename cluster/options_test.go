package cluster

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestOptionsFile: the broker settings a run records come back as they
// were, without the consumer's settings; no file is no cluster.
func TestOptionsFile(t *testing.T) {
	dir := t.TempDir()
	if o, err := LoadOptions(dir); err != nil || o.Enabled() || o != (Options{}) {
		t.Fatalf("no file: %+v, %v", o, err)
	}
	o := Options{NATS: "nats://h:4222", TokenFile: "/t", AckWait: time.Second, MaxDeliver: 2}
	data, err := o.Encode()
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"nats\": \"nats://h:4222\",\n  \"token_file\": \"/t\"\n}\n"
	if string(data) != want {
		t.Errorf("Encode: %q, want %q", data, want)
	}
	if err := os.WriteFile(filepath.Join(dir, OptionsFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := LoadOptions(dir)
	if err != nil || got != (Options{NATS: o.NATS, TokenFile: o.TokenFile}) || !got.Enabled() {
		t.Errorf("LoadOptions: %+v, %v", got, err)
	}
	if c := o.ConnectOptions("w"); !reflect.DeepEqual(c, ConnectOptions{Name: "w", AckWait: time.Second, MaxDeliver: 2}) {
		t.Errorf("ConnectOptions: %+v", c)
	}
	os.WriteFile(filepath.Join(dir, OptionsFile), []byte("{"), 0o644)
	if _, err := LoadOptions(dir); err == nil || !strings.Contains(err.Error(), OptionsFile) {
		t.Errorf("a damaged file: %v", err)
	}
}

// TestOpen: a runner on a broker of its own, which closes with it; the
// settings that cannot work are a *SettingsError, a broker that refuses
// is not.
func TestOpen(t *testing.T) {
	ctx := context.Background()
	tok := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tok, []byte(testToken+"\n"), 0o600)
	var log strings.Builder
	o := Options{BrokerListen: "127.0.0.1:0", TokenFile: tok}
	r, err := o.Open(ctx, RunnerOptions{Run: "open", Workers: 1, Ephemeral: true}, t.TempDir(), &log)
	if err != nil {
		t.Fatal(err)
	}
	if got := collect(t, r, matchSpecs(t, 1)); len(got) != 2 {
		t.Errorf("%d games", len(got))
	}
	r.Close()
	if !strings.HasPrefix(log.String(), "broker listening at nats://127.0.0.1:") {
		t.Errorf("log %q", log.String())
	}
	var settings *SettingsError
	if _, err := (Options{NATS: "nats://127.0.0.1:1"}).Open(ctx, RunnerOptions{Run: "open"}, "", &log); !errors.As(err, &settings) {
		t.Errorf("no token file: %v", err)
	}
	b := startBroker(t)
	os.WriteFile(tok, []byte("wrong\n"), 0o600)
	if _, err := (Options{NATS: b.URL(), TokenFile: tok}).Open(ctx, RunnerOptions{Run: "open"}, "", &log); !errors.Is(err, ErrUnauthorized) || errors.As(err, &settings) {
		t.Errorf("a wrong token: %v", err)
	}
}

// TestOpenWorker: a worker on its own connection, named after the process
// by default; no token file is a *SettingsError.
func TestOpenWorker(t *testing.T) {
	ctx := context.Background()
	b := startBroker(t)
	tok := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tok, []byte(testToken+"\n"), 0o600)
	w, err := (Options{NATS: b.URL(), TokenFile: tok}).OpenWorker(ctx, WorkerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w.Name() != ProcessName() {
		t.Errorf("name %q, want %q", w.Name(), ProcessName())
	}
	w.Close()
	if !w.conn.NC.IsClosed() {
		t.Error("Close left the connection open")
	}
	var settings *SettingsError
	if _, err := (Options{NATS: b.URL()}).OpenWorker(ctx, WorkerOptions{}); !errors.As(err, &settings) {
		t.Errorf("no token file: %v", err)
	}
}
