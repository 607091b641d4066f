package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gametune/gametune/files"
)

// Options say how a command reaches the broker that has its games played:
// a broker's URL, or a broker to start in the process, and the token file.
// The zero value means no cluster: the games are played locally.
type Options struct {
	NATS         string `json:"nats,omitempty"`          // the broker's URL, nats://HOST:PORT
	TokenFile    string `json:"token_file,omitempty"`    // the file holding the broker's token
	BrokerListen string `json:"broker_listen,omitempty"` // start a broker here, listening on HOST:PORT
	TLSCA        string `json:"tls_ca,omitempty"`        // the certificates (PEM) that sign the broker's, for TLS

	// WorkerKeyFile is a worker's key (NewWorkerKey), given instead of
	// TokenFile by a worker with an identity of its own; not recorded.
	WorkerKeyFile string `json:"-"`

	// The workers' consumer's settings when this process creates it (for
	// tests and impatient users; not recorded with a run). 0: the defaults.
	AckWait    time.Duration `json:"-"`
	MaxDeliver int           `json:"-"`
}

// Enabled reports whether o sends the games to a broker.
func (o Options) Enabled() bool { return o.NATS != "" || o.BrokerListen != "" }

// ConnectOptions are the settings of a connection named name.
func (o Options) ConnectOptions(name string) ConnectOptions {
	return ConnectOptions{Name: name, AckWait: o.AckWait, MaxDeliver: o.MaxDeliver, TLSCA: o.TLSCA}
}

// OptionsFile is the file in a run's directory that keeps the broker
// settings the run was started with, for resume.
const OptionsFile = "cluster.json"

// maxOptionsFile bounds the OptionsFile LoadOptions reads, and
// maxOptionText each setting in it.
const (
	maxOptionsFile = 64 << 10
	maxOptionText  = 4096
)

// Encode returns o as the content of OptionsFile: indented JSON and a
// newline. The files it names are recorded as absolute paths (resolved
// against the working directory), so that a run resumed from another
// directory finds them.
func (o Options) Encode() ([]byte, error) {
	var err error
	for _, p := range o.files() {
		if *p.path != "" {
			if *p.path, err = filepath.Abs(*p.path); err != nil {
				return nil, fmt.Errorf("cluster: %s %s: %w", p.name, *p.path, err)
			}
		}
	}
	data, err := json.MarshalIndent(o, "", "  ")
	return append(data, '\n'), err
}

type optionFile struct {
	name string
	path *string
}

// files lists the settings of o that name files, with their flags.
func (o *Options) files() []optionFile {
	return []optionFile{{"--token-file", &o.TokenFile}, {"--tls-ca", &o.TLSCA}}
}

// LoadOptions reads the OptionsFile in dir: the zero Options when there
// is none. It reads at most 64 KiB, refuses unknown fields, settings longer
// than 4096 bytes and files named by relative paths (which older versions
// recorded: they meant the directory the run was started from).
func LoadOptions(dir string) (Options, error) {
	var o Options
	path := filepath.Join(dir, OptionsFile)
	f, err := files.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return o, nil
	}
	if err != nil {
		return o, fmt.Errorf("cluster: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxOptionsFile+1))
	if err != nil {
		return o, err
	}
	if o, err = DecodeOptions(data); err != nil {
		return o, fmt.Errorf("%s: %w", path, err)
	}
	return o, nil
}

// DecodeOptions reads the content of an OptionsFile (see LoadOptions).
func DecodeOptions(data []byte) (Options, error) {
	var o Options
	if len(data) > maxOptionsFile {
		return Options{}, fmt.Errorf("cluster: more than %d bytes: not a file gametune wrote", maxOptionsFile)
	}
	if err := strictUnmarshal(data, &o); err != nil {
		return Options{}, fmt.Errorf("cluster: the broker settings do not parse: %w", err)
	}
	for _, s := range []struct{ name, value string }{{"nats", o.NATS}, {"token_file", o.TokenFile}, {"broker_listen", o.BrokerListen}, {"tls_ca", o.TLSCA}} {
		if len(s.value) > maxOptionText || strings.ContainsRune(s.value, 0) {
			return Options{}, fmt.Errorf("cluster: setting %s: %d bytes or a NUL byte (at most %d bytes of text)", s.name, len(s.value), maxOptionText)
		}
	}
	for _, p := range o.files() {
		if *p.path != "" && !filepath.IsAbs(*p.path) {
			return Options{}, fmt.Errorf("cluster: %s is recorded as the relative path %q, relative to a directory not known now: resume with --nats URL %s FILE", p.name, *p.path, p.name)
		}
	}
	return o, nil
}

// Open returns the runner of the run ro names on the broker o gives
// (Dial): it reads the token file, starts the broker o.BrokerListen asks
// for, its data in brokerStore and its address written to log, and
// connects as a coordinator named ro.Name (default: ProcessName). An error
// of the settings themselves, the token file or the broker to start, is a
// *SettingsError.
func (o Options) Open(ctx context.Context, ro RunnerOptions, brokerStore string, log io.Writer) (*Runner, error) {
	token, err := ReadToken(o.TokenFile)
	if err != nil {
		return nil, &SettingsError{err}
	}
	var broker *Broker
	if o.BrokerListen != "" {
		if broker, err = StartBroker(BrokerOptions{Listen: o.BrokerListen, Store: brokerStore, Token: token}); err != nil {
			return nil, &SettingsError{err}
		}
		fmt.Fprintf(log, "broker listening at %s\n", broker.URL())
	}
	if ro.Name == "" {
		ro.Name = ProcessName()
	}
	return Dial(ctx, DialOptions{URL: o.NATS, Token: token, Broker: broker, Connect: o.ConnectOptions("tune coordinator " + ro.Name), Runner: ro})
}

// OpenWorker connects to the broker at o.NATS as the worker wo names
// (default: ProcessName) and returns it (NewWorker). It reads the worker's
// key file, or else the token file: an error there is a *SettingsError. The worker owns the
// connection: Close closes it.
func (o Options) OpenWorker(ctx context.Context, wo WorkerOptions) (*Worker, error) {
	if err := wo.Limits.Check(); err != nil {
		return nil, &SettingsError{err}
	}
	co := o.ConnectOptions("")
	var token string
	var err error
	switch {
	case o.WorkerKeyFile != "" && o.TokenFile != "":
		return nil, &SettingsError{errors.New("cluster: give a worker --token-file or --key-file, not both")}
	case o.WorkerKeyFile != "":
		co.WorkerKey, err = ReadWorkerKey(o.WorkerKeyFile)
	default:
		token, err = ReadToken(o.TokenFile)
	}
	if err != nil {
		return nil, &SettingsError{err}
	}
	if wo.Name == "" {
		wo.Name = ProcessName()
	}
	co.Name = "tune worker " + wo.Name
	conn, err := Connect(ctx, o.NATS, token, co)
	if err != nil {
		return nil, err
	}
	w, err := NewWorker(ctx, conn, wo)
	if err != nil {
		conn.Close()
		return nil, err
	}
	w.owned = true
	return w, nil
}

// SettingsError is the error of settings a user gave that cannot work (a
// token file, a broker's address or store), as opposed to a broker that
// failed: its message is Err's.
type SettingsError struct{ Err error }

func (e *SettingsError) Error() string { return e.Err.Error() }
func (e *SettingsError) Unwrap() error { return e.Err }
