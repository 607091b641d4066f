package cluster

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
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

// TestOptionsFileBounds: cluster.json records absolute paths; relative
// ones (from older versions), unknown fields, long settings and large
// files are refused with a message naming what to do.
func TestOptionsFileBounds(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	data, err := Options{NATS: "nats://h:4222", TokenFile: "token", TLSCA: "certs/ca.pem"}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	o, err := DecodeOptions(data)
	if err != nil || o.TokenFile != filepath.Join(dir, "token") || o.TLSCA != filepath.Join(dir, "certs", "ca.pem") {
		t.Fatalf("recorded %s: %+v, %v", data, o, err)
	}
	for _, c := range []struct{ content, want string }{
		{`{"nats":"nats://h:1","token_file":"token"}`, `--token-file is recorded as the relative path "token"`},
		{`{"nats":"nats://h:1","tls_ca":"ca.pem"}`, "resume with --nats URL --tls-ca FILE"},
		{`{"nats":"nats://h:1","tokenfile":"/t"}`, `unknown field "tokenfile"`},
		{`{"nats":"` + strings.Repeat("x", 5000) + `"}`, "setting nats: 5000 bytes"},
		{`{"nats":"a"} {}`, "data after the message"},
		{strings.Repeat(" ", maxOptionsFile) + "{}", "more than 65536 bytes"},
	} {
		os.WriteFile(filepath.Join(dir, OptionsFile), []byte(c.content), 0o644)
		if _, err := LoadOptions(dir); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), OptionsFile) {
			t.Errorf("%.60s: %v, want %q", c.content, err, c.want)
		}
	}
}

func FuzzDecodeOptions(f *testing.F) {
	f.Add([]byte(`{"nats":"nats://h:4222","token_file":"/t","tls_ca":"/ca.pem"}`))
	f.Add([]byte(`{"broker_listen":"127.0.0.1:0","token_file":"t"}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := DecodeOptions(data)
		if err != nil {
			if o != (Options{}) {
				t.Fatalf("an error with options %+v", o)
			}
			return
		}
		for _, p := range []string{o.TokenFile, o.TLSCA} {
			if p != "" && !filepath.IsAbs(p) {
				t.Fatalf("a relative path accepted: %q", p)
			}
		}
		again, err := o.Encode()
		if err != nil {
			t.Fatal(err)
		}
		want := o // paths come back cleaned
		for _, p := range want.files() {
			if *p.path != "" {
				*p.path = filepath.Clean(*p.path)
			}
		}
		if back, err := DecodeOptions(again); err != nil || back != want {
			t.Fatalf("%+v does not round-trip: %+v, %v", o, back, err)
		}
	})
}

func FuzzReadToken(f *testing.F) {
	f.Add([]byte("t0ken\n"))
	f.Add([]byte(" two words "))
	f.Add([]byte(""))
	path := filepath.Join(f.TempDir(), "token")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		tok, err := ReadToken(path)
		if err != nil {
			return
		}
		if tok == "" || strings.ContainsAny(tok, " \t\r\n") || !strings.Contains(string(data), tok) {
			t.Fatalf("%q gave the token %q", data, tok)
		}
	})
}

// TestTokenFileRefused: a token file that is a FIFO is refused at once; one
// its group or everyone may read is refused.
func TestTokenFileRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	open := filepath.Join(dir, "open")
	os.WriteFile(open, []byte("tok\n"), 0o600)
	os.Chmod(open, 0o644)
	for path, want := range map[string]string{fifo: "named pipe", open: "readable by everyone (mode -rw-r--r--)"} {
		done := make(chan error, 1)
		go func() {
			_, err := ReadToken(path)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want %q", filepath.Base(path), err, want)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%s: no answer within 10 seconds", filepath.Base(path))
		}
	}
}

// TestOptionsSaveResumed: a run records its broker settings only when it
// has a broker; resumed without cluster flags it goes back to them, and
// flags given win.
func TestOptionsSaveResumed(t *testing.T) {
	dir := t.TempDir()
	if err := (Options{}).Save(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, OptionsFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the local pool recorded a file: %v", err)
	}
	if o, err := (Options{}).Resumed(dir); err != nil || o != (Options{}) {
		t.Errorf("resumed with nothing recorded: %+v, %v", o, err)
	}
	recorded := Options{NATS: "nats://h:4222", TokenFile: "/t", TLSCA: "/ca"}
	if err := recorded.Save(dir); err != nil {
		t.Fatal(err)
	}
	if o, err := (Options{AckWait: time.Second}).Resumed(dir); err != nil || o != (Options{NATS: "nats://h:4222", TokenFile: "/t", TLSCA: "/ca", AckWait: time.Second}) {
		t.Errorf("resumed without flags: %+v, %v", o, err)
	}
	given := Options{NATS: "nats://other:4222"}
	if o, err := given.Resumed(dir); err != nil || o != given {
		t.Errorf("resumed with --nats: %+v, %v", o, err)
	}
}

// TestAuditFlag: --audit unset audits the default share, "0" nothing, a
// percentage or a fraction that share; a bad value is refused.
func TestAuditFlag(t *testing.T) {
	var unset AuditFlag
	if unset.Share() != 0 || unset.String() != "2%" || unset.Type() != "share" {
		t.Errorf("unset: %v %q %q", unset.Share(), unset.String(), unset.Type())
	}
	for value, want := range map[string]float64{"0": -1, "0%": -1, "5%": 0.05, "0.25": 0.25} {
		var f AuditFlag
		if err := f.Set(value); err != nil || f.Share() != want || f.String() != value {
			t.Errorf("--audit %s: %v %q %v, want %v", value, f.Share(), f.String(), err, want)
		}
	}
	var f AuditFlag
	if err := f.Set("lots"); err == nil {
		t.Error("--audit lots accepted")
	}
}
