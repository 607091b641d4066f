package cluster

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gametune/gametune/secretfile"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
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
// it is created; a consumer that exists keeps its settings unless a client
// with the token asks for others explicitly (ConnectOptions).
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
	results jetstream.Stream // nil on a worker's own key's connection
	url     string
	// keyName is the public key of a worker's connection with a key of its
	// own: its name in results. "" for a connection with the token.
	keyName string
	// ticketKey signs job tickets (ticket): derived from the token, so that
	// the coordinator of a resumed run checks the tickets of the jobs its
	// predecessor published. nil on a worker's own key's connection.
	ticketKey []byte
}

// ConnectOptions are the settings of a connection. The zero value of each
// field means its default.
type ConnectOptions struct {
	Name       string        // client name shown by the server
	AckWait    time.Duration // of the workers' consumer (set when given); 0: DefaultAckWait when created
	MaxDeliver int           // of the workers' consumer (set when given); 0: DefaultMaxDeliver when created
	// TLSCA is a file of PEM certificates that sign the broker's, for a
	// broker that speaks TLS ("": the system's roots).
	TLSCA string
	// WorkerKey is a worker's NKey seed (NewWorkerKey): the connection
	// authenticates with it instead of the token, and may only do what a
	// worker does (WorkerPermissions), so it looks the streams up and
	// creates nothing.
	WorkerKey []byte

	extra []nats.Option // the broker's own connection: in process
}

// The limits of the streams, set when this version creates a stream or
// finds one without them: a broker's disk is not filled by a coordinator
// that publishes without end, and what nobody consumed goes after
// StreamMaxAge. A full stream refuses new messages (the publisher gets an
// error) rather than dropping old ones.
const (
	StreamMaxBytes = 1 << 30             // bytes of each stream
	StreamMaxMsgs  = 1_000_000           // messages of each stream
	StreamMaxAge   = 30 * 24 * time.Hour // age of a message
	// RunConsumerInactive is the time after which the broker removes the
	// consumer of a run's results that nobody reads (a coordinator killed
	// without closing its runner); a runner that closes deletes it.
	RunConsumerInactive = time.Hour
)

// Connect connects to the broker at url with token (or as a worker with
// o.WorkerKey) and makes sure the streams exist with the settings of this
// version. Its errors say what went wrong: an unreachable broker, refused
// credentials or certificate, streams created otherwise.
func Connect(ctx context.Context, url, token string, o ConnectOptions) (*Conn, error) {
	if url == "" && o.extra == nil {
		return nil, errors.New("cluster: no broker URL (--nats nats://HOST:PORT)")
	}
	opts := []nats.Option{nats.Name(o.Name), nats.Timeout(5 * time.Second), nats.MaxReconnects(-1), nats.ReconnectWait(500 * time.Millisecond)}
	c := &Conn{url: url}
	if o.WorkerKey != nil {
		kp, err := nkeys.FromSeed(o.WorkerKey)
		if err != nil {
			return nil, fmt.Errorf("cluster: the worker key is not an NKey seed: %w", err)
		}
		defer kp.Wipe()
		pub, err := kp.PublicKey()
		if err != nil || !nkeys.IsValidPublicUserKey(pub) {
			return nil, fmt.Errorf("cluster: the worker key is not a user's NKey seed (want one starting with SU; 'tune worker --new-key F' makes one)")
		}
		c.keyName = pub
		sign := func(nonce []byte) ([]byte, error) {
			kp, err := nkeys.FromSeed(o.WorkerKey)
			if err != nil {
				return nil, err
			}
			defer kp.Wipe()
			return kp.Sign(nonce)
		}
		opts = append(opts, nats.Nkey(pub, sign))
	} else {
		opts = append(opts, nats.Token(token))
		sum := sha256.Sum256([]byte("gametune job tickets\x00" + token))
		c.ticketKey = sum[:]
	}
	if o.TLSCA != "" {
		tc, err := clientTLS(o.TLSCA)
		if err != nil {
			return nil, err
		}
		opts = append(opts, nats.Secure(tc))
	}
	nc, err := nats.Connect(url, append(opts, o.extra...)...)
	if err != nil {
		msg := strings.ToLower(err.Error())
		switch {
		case errors.Is(err, nats.ErrAuthorization) || strings.Contains(msg, "authorization"):
			return nil, fmt.Errorf("%w (broker %s)", ErrUnauthorized, url)
		case strings.Contains(msg, "x509") || strings.Contains(msg, "tls") || errors.Is(err, nats.ErrSecureConnRequired) || errors.Is(err, nats.ErrSecureConnWanted):
			return nil, fmt.Errorf("cluster: TLS with the broker at %s: %w (give the broker's CA certificate: --tls-ca FILE)", url, err)
		case errors.Is(err, nats.ErrNoServers):
			return nil, fmt.Errorf("cluster: cannot reach the broker at %s (is it running? 'tune broker' starts one): %w", url, err)
		}
		return nil, fmt.Errorf("cluster: connecting to %s: %w", url, err)
	}
	c.NC = nc
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
	worker := o.WorkerKey != nil
	var err error
	if c.jobs, err = ensureStream(ctx, c.JS, JobsStream, jobsPrefix+"*", worker); err != nil {
		return err
	}
	if !worker { // a worker with a key publishes to its run's stream (runResultsStream)
		if c.results, err = ensureStream(ctx, c.JS, ResultsStream, resultsPrefix+"*", worker); err != nil {
			return err
		}
	}
	cons, err := c.jobs.Consumer(ctx, WorkersConsumer)
	if err == nil && !worker {
		return c.adjustConsumer(ctx, cons, o)
	}
	if errors.Is(err, jetstream.ErrConsumerNotFound) && worker {
		return fmt.Errorf("cluster: the broker at %s has no workers' consumer, and a worker with its own key may not create one: start a coordinator first, or the broker with 'tune broker' (which creates it)", c.url)
	}
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

// adjustConsumer gives the workers' consumer the ack wait and max deliver
// o sets explicitly, where they differ (the broker made it with the
// defaults; a test or an impatient user asks for others).
func (c *Conn) adjustConsumer(ctx context.Context, cons jetstream.Consumer, o ConnectOptions) error {
	cfg := cons.CachedInfo().Config
	if (o.AckWait <= 0 || cfg.AckWait == o.AckWait) && (o.MaxDeliver <= 0 || cfg.MaxDeliver == o.MaxDeliver) {
		return nil
	}
	if o.AckWait > 0 {
		cfg.AckWait = o.AckWait
	}
	if o.MaxDeliver > 0 {
		cfg.MaxDeliver = o.MaxDeliver
	}
	if _, err := c.jobs.UpdateConsumer(ctx, cfg); err != nil {
		return c.apiError("setting the workers' consumer's ack wait and max deliver", err)
	}
	return nil
}

func (c *Conn) apiError(what string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, jetstream.ErrJetStreamNotEnabled) || errors.Is(err, nats.ErrTimeout) {
		return fmt.Errorf("cluster: %s on %s: %w (is JetStream enabled on the broker? 'nats-server -js' or 'tune broker'; does this client have the permission?)", what, c.url, err)
	}
	return fmt.Errorf("cluster: %s on %s: %w", what, c.url, err)
}

// ensureStream creates the work-queue stream name of subject, or checks
// that the one there is one, and gives it this version's limits if it has
// none. A worker (lookOnly) only looks it up.
func ensureStream(ctx context.Context, js jetstream.JetStream, name, subject string, lookOnly bool) (jetstream.Stream, error) {
	want := jetstream.StreamConfig{
		Name: name, Subjects: []string{subject}, Retention: jetstream.WorkQueuePolicy,
		Storage: jetstream.FileStorage, MaxMsgSize: MaxMessage, Description: fmt.Sprintf("gametune wire version %d", WireVersion),
		MaxBytes: StreamMaxBytes, MaxMsgs: StreamMaxMsgs, MaxAge: StreamMaxAge, Discard: jetstream.DiscardNew,
	}
	s, err := js.Stream(ctx, name)
	if errors.Is(err, jetstream.ErrStreamNotFound) && lookOnly {
		return nil, fmt.Errorf("cluster: the broker has no stream %s, and a worker with its own key may not create one: start a coordinator first, or the broker with 'tune broker' (which creates it)", name)
	}
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
	if !lookOnly && (got.MaxBytes <= 0 || got.MaxMsgs <= 0 || got.MaxAge <= 0) {
		// Made by a version without limits: give it this version's.
		got.MaxBytes, got.MaxMsgs, got.MaxAge, got.Discard = want.MaxBytes, want.MaxMsgs, want.MaxAge, want.Discard
		if s, err = js.UpdateStream(ctx, got); err != nil {
			return nil, fmt.Errorf("cluster: giving stream %s its limits: %w", name, err)
		}
	}
	return s, nil
}

// TicketHeader is the header of a job's ticket, which a worker sends back
// with its result: a result of a worker with a key whose ticket is not the
// job's is the result of a job it was never handed, and is refused.
const TicketHeader = "Gametune-Ticket"

// ticket is the ticket of the job key of run: a MAC with the coordinators'
// secret, so that only a worker that was handed the job knows it.
func (c *Conn) ticket(run, key string) string {
	m := hmac.New(sha256.New, c.ticketKey)
	m.Write([]byte(run + "\x00" + key))
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// validTicket reports whether t is the ticket of the job key of run.
func (c *Conn) validTicket(run, key, t string) bool {
	return c.ticketKey != nil && hmac.Equal([]byte(t), []byte(c.ticket(run, key)))
}

// The results of workers with keys of their own go to a stream of their
// run (runResultsStream, subjects gametune.results.RUN.KEY), which the
// run's coordinator makes: a worker that publishes for a run without one
// stores nothing. Its limits bound what one worker can write: at most
// RunResultsPerWorker results of one worker wait in it (above the most a
// coordinator holds, maxHeld), a full subject or stream refuses new
// results rather than dropping old ones, and a result is dropped after
// RunResultsMaxAge (a run resumed later plays those games again).
const (
	RunResultsMaxBytes  = 1 << 30
	RunResultsMaxMsgs   = 1_000_000
	RunResultsPerWorker = 2 * maxHeld
	RunResultsMaxAge    = 24 * time.Hour
)

// runResultsStream is the name of the stream of run's results from workers
// with keys.
func runResultsStream(run string) string { return ResultsStream + "_" + run }

// keyedResultsSubject is the subject of the results the worker of public
// key pub publishes for run.
func keyedResultsSubject(run, pub string) string { return resultsPrefix + run + "." + pub }

// ensureRunStream makes the stream of run's results from workers with
// keys, or gives the one there this version's settings; perWorker is its
// limit of results of one worker (0: RunResultsPerWorker).
func ensureRunStream(ctx context.Context, js jetstream.JetStream, run string, perWorker int64) (jetstream.Stream, error) {
	if perWorker <= 0 {
		perWorker = RunResultsPerWorker
	}
	s, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: runResultsStream(run), Subjects: []string{resultsPrefix + run + ".*"}, Retention: jetstream.WorkQueuePolicy,
		Storage: jetstream.FileStorage, MaxMsgSize: MaxMessage, Description: fmt.Sprintf("gametune wire version %d: results of run %s from workers with keys", WireVersion, run),
		MaxBytes: RunResultsMaxBytes, MaxMsgs: RunResultsMaxMsgs, MaxAge: RunResultsMaxAge, Discard: jetstream.DiscardNew,
		MaxMsgsPerSubject: perWorker, DiscardNewPerSubject: true,
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: the stream of run %s's results: %w", run, err)
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
