package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Options say how a command reaches the broker that has its games played:
// a broker's URL, or a broker to start in the process, and the token file.
// The zero value means no cluster: the games are played locally.
type Options struct {
	NATS         string `json:"nats,omitempty"`          // the broker's URL, nats://HOST:PORT
	TokenFile    string `json:"token_file,omitempty"`    // the file holding the broker's token
	BrokerListen string `json:"broker_listen,omitempty"` // start a broker here, listening on HOST:PORT

	// The workers' consumer's settings when this process creates it (for
	// tests and impatient users; not recorded with a run). 0: the defaults.
	AckWait    time.Duration `json:"-"`
	MaxDeliver int           `json:"-"`
}

// Enabled reports whether o sends the games to a broker.
func (o Options) Enabled() bool { return o.NATS != "" || o.BrokerListen != "" }

// ConnectOptions are the settings of a connection named name.
func (o Options) ConnectOptions(name string) ConnectOptions {
	return ConnectOptions{Name: name, AckWait: o.AckWait, MaxDeliver: o.MaxDeliver}
}

// OptionsFile is the file in a run's directory that keeps the broker
// settings the run was started with, for resume.
const OptionsFile = "cluster.json"

// Encode returns o as the content of OptionsFile: indented JSON and a
// newline.
func (o Options) Encode() ([]byte, error) {
	data, err := json.MarshalIndent(o, "", "  ")
	return append(data, '\n'), err
}

// LoadOptions reads the OptionsFile in dir: the zero Options when there
// is none.
func LoadOptions(dir string) (Options, error) {
	var o Options
	path := filepath.Join(dir, OptionsFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return o, nil
	}
	if err != nil {
		return o, err
	}
	if err := json.Unmarshal(data, &o); err != nil {
		return o, fmt.Errorf("%s: %w", path, err)
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
// (default: ProcessName) and returns it (NewWorker). It reads the token
// file: an error there is a *SettingsError. The worker owns the
// connection: Close closes it.
func (o Options) OpenWorker(ctx context.Context, wo WorkerOptions) (*Worker, error) {
	token, err := ReadToken(o.TokenFile)
	if err != nil {
		return nil, &SettingsError{err}
	}
	if wo.Name == "" {
		wo.Name = ProcessName()
	}
	conn, err := Connect(ctx, o.NATS, token, o.ConnectOptions("tune worker "+wo.Name))
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
