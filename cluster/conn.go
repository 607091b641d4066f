package cluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gametune/gametune/secretfile"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Names of the streams, subjects and the workers' consumer.
const (
	JobsStream      = "GAMETUNE_JOBS"
	ResultsStream   = "GAMETUNE_RESULTS"
	jobsPrefix      = "gametune.jobs."
	resultsPrefix   = "gametune.results."
	WorkersConsumer = "workers"
)

// DefaultAckWait and DefaultMaxDeliver configure the workers' consumer when
// it is created (a consumer that exists keeps its settings).
const (
	DefaultAckWait    = 30 * time.Second
	DefaultMaxDeliver = 5
)

// ErrUnauthorized is the error of a broker that refused the credentials.
var ErrUnauthorized = errors.New("cluster: the broker refused the token (authorization violation): check --token-file")

// ReadToken reads a token file: one line, surrounding space trimmed. The
// file must be a plain file readable by its owner alone, of at most
// secretfile.MaxSize bytes (secretfile.Read: a FIFO is refused, not waited
// on). An empty file is refused: no access is anonymous.
func ReadToken(path string) (string, error) {
	if path == "" {
		return "", errors.New("cluster: a token file is required (--token-file F; no access is anonymous)")
	}
	data, err := secretfile.Read(path, "token file")
	if err != nil {
		return "", fmt.Errorf("cluster: %w", err)
	}
	tok := strings.TrimSpace(string(data))
	if tok == "" || strings.ContainsAny(tok, " \t\r\n") {
		return "", fmt.Errorf("cluster: token file %s: want one token on one line", path)
	}
	return tok, nil
}

// Conn is a connection to a broker with the streams of gametune in place.
type Conn struct {
	NC      *nats.Conn
	JS      jetstream.JetStream
	jobs    jetstream.Stream
	results jetstream.Stream
	url     string
}

// ConnectOptions are the settings of a connection. The zero value of each
// field means its default.
type ConnectOptions struct {
	Name       string        // client name shown by the server
	AckWait    time.Duration // of the workers' consumer when created; 0: DefaultAckWait
	MaxDeliver int           // of the workers' consumer when created; 0: DefaultMaxDeliver
}

// Connect connects to the broker at url with token and makes sure the
// streams exist with the settings of this version. Its errors say what went
// wrong: an unreachable broker, a refused token, streams created otherwise.
func Connect(ctx context.Context, url, token string, o ConnectOptions) (*Conn, error) {
	if url == "" {
		return nil, errors.New("cluster: no broker URL (--nats nats://HOST:PORT)")
	}
	nc, err := nats.Connect(url, nats.Token(token), nats.Name(o.Name), nats.Timeout(5*time.Second),
		nats.MaxReconnects(-1), nats.ReconnectWait(500*time.Millisecond))
	if err != nil {
		switch {
		case errors.Is(err, nats.ErrAuthorization) || strings.Contains(strings.ToLower(err.Error()), "authorization"):
			return nil, fmt.Errorf("%w (broker %s)", ErrUnauthorized, url)
		case errors.Is(err, nats.ErrNoServers):
			return nil, fmt.Errorf("cluster: cannot reach the broker at %s (is it running? 'tune broker' starts one): %w", url, err)
		}
		return nil, fmt.Errorf("cluster: connecting to %s: %w", url, err)
	}
	c := &Conn{NC: nc, url: url}
	if c.JS, err = jetstream.New(nc); err != nil {
		nc.Close()
		return nil, fmt.Errorf("cluster: %w", err)
	}
	if err := c.ensure(ctx, o); err != nil {
		nc.Close()
		return nil, err
	}
	return c, nil
}

// Close closes the connection.
func (c *Conn) Close() { c.NC.Close() }

func (c *Conn) ensure(ctx context.Context, o ConnectOptions) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var err error
	if c.jobs, err = ensureStream(ctx, c.JS, JobsStream, jobsPrefix+"*"); err != nil {
		return err
	}
	if c.results, err = ensureStream(ctx, c.JS, ResultsStream, resultsPrefix+"*"); err != nil {
		return err
	}
	_, err = c.jobs.Consumer(ctx, WorkersConsumer)
	if errors.Is(err, jetstream.ErrConsumerNotFound) {
		ack, maxDeliver := o.AckWait, o.MaxDeliver
		if ack <= 0 {
			ack = DefaultAckWait
		}
		if maxDeliver <= 0 {
			maxDeliver = DefaultMaxDeliver
		}
		_, err = c.jobs.CreateConsumer(ctx, jetstream.ConsumerConfig{
			Durable: WorkersConsumer, Description: "gametune workers: every run's games",
			AckPolicy: jetstream.AckExplicitPolicy, AckWait: ack, MaxDeliver: maxDeliver,
			MaxAckPending: 100_000, FilterSubject: jobsPrefix + "*",
		})
		if errors.Is(err, jetstream.ErrConsumerExists) {
			err = nil // another process made it at the same time
		}
	}
	if err != nil {
		return c.apiError("the workers' consumer", err)
	}
	return nil
}

func (c *Conn) apiError(what string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, jetstream.ErrJetStreamNotEnabled) || errors.Is(err, nats.ErrTimeout) {
		return fmt.Errorf("cluster: %s on %s: %w (is JetStream enabled on the broker? 'nats-server -js' or 'tune broker')", what, c.url, err)
	}
	return fmt.Errorf("cluster: %s on %s: %w", what, c.url, err)
}

// ensureStream creates the work-queue stream name of subject, or checks
// that the one there is one.
func ensureStream(ctx context.Context, js jetstream.JetStream, name, subject string) (jetstream.Stream, error) {
	want := jetstream.StreamConfig{
		Name: name, Subjects: []string{subject}, Retention: jetstream.WorkQueuePolicy,
		Storage: jetstream.FileStorage, MaxMsgSize: MaxMessage, Description: fmt.Sprintf("gametune wire version %d", WireVersion),
	}
	s, err := js.Stream(ctx, name)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		s, err = js.CreateStream(ctx, want)
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			s, err = js.Stream(ctx, name)
		}
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, jetstream.ErrJetStreamNotEnabled) {
			return nil, fmt.Errorf("cluster: stream %s: %w (is JetStream enabled on the broker? 'nats-server -js' or 'tune broker')", name, err)
		}
		return nil, fmt.Errorf("cluster: stream %s: %w", name, err)
	}
	got := s.CachedInfo().Config
	if got.Retention != jetstream.WorkQueuePolicy || !slices.Equal(got.Subjects, want.Subjects) || got.Description != want.Description {
		return nil, fmt.Errorf("cluster: stream %s on the broker was made by another version of gametune (%q, subjects %v, retention %v; this version wants %q, %v, work queue): let its jobs finish, then delete it", name, got.Description, got.Subjects, got.Retention, want.Description, want.Subjects)
	}
	return s, nil
}

// validToken reports whether s can stand in a subject as one token.
func validToken(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}
