package cluster

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/gametune/gametune/files"
	"github.com/nats-io/nats.go/jetstream"
)

// Artifacts are the files a job needs besides its own message: the tables
// of an evaluator (a compact weights file, .gtw) and, later, books and
// engine binaries. They travel through JetStream's object store, in the
// bucket ArtifactsBucket, each named by the hex SHA-256 of its content: a
// coordinator puts each once (PutArtifact), a job names what it needs by
// that hash, and a worker fetches each once into a bounded cache on its
// disk (ArtifactCache), checking the hash; nothing is sent again per job.

// The artifacts' bucket and its bounds: an artifact at most MaxArtifact
// bytes (a weights file of tables: games.MaxTablesFile), the bucket at most
// ArtifactsMaxBytes, what nobody put again for StreamMaxAge gone.
const (
	ArtifactsBucket   = "GAMETUNE_ARTIFACTS"
	MaxArtifact       = 64 << 20
	ArtifactsMaxBytes = 4 << 30
)

// DefaultArtifactCache is the size of a worker's cache of artifacts on
// disk when its options name none.
const DefaultArtifactCache = 2 << 30

// ErrArtifact is wrapped by the errors of an artifact a worker cannot get
// (not on the broker, too large, not matching its name): a job that needs
// it is refused (ErrRefused) with the artifact's name.
var ErrArtifact = errors.New("cluster: artifact")

// ArtifactName returns the name of content: its SHA-256, in hex.
func ArtifactName(content []byte) string {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:])
}

// validArtifactName reports whether s is an artifact's name: 64 hex
// digits, lower case.
func validArtifactName(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// artifactBucket returns the artifacts' bucket, made with its bounds when
// create is set and it is not there (a worker with a key of its own may
// only look it up).
func artifactBucket(ctx context.Context, js jetstream.JetStream, create bool) (jetstream.ObjectStore, error) {
	obs, err := js.ObjectStore(ctx, ArtifactsBucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) && create {
		obs, err = js.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{
			Bucket: ArtifactsBucket, Description: "gametune artifacts, named by their SHA-256",
			MaxBytes: ArtifactsMaxBytes, TTL: StreamMaxAge, Storage: jetstream.FileStorage,
		})
		if errors.Is(err, jetstream.ErrBucketExists) || errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			obs, err = js.ObjectStore(ctx, ArtifactsBucket)
		}
	}
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, fmt.Errorf("the broker has no bucket %s (a coordinator of this version makes it when a job needs one)", ArtifactsBucket)
	}
	return obs, err
}

// artifactsReader are the subjects a worker with a key of its own
// publishes to read artifacts (WorkerPermissions): the bucket's stream's
// info, its last message of a subject (an object's description), and an
// ordered consumer of an object's chunks, with its flow control.
func artifactsReader() []string {
	stream := "OBJ_" + ArtifactsBucket
	return []string{
		"$JS.API.STREAM.INFO." + stream,
		"$JS.API.STREAM.MSG.GET." + stream,
		"$JS.API.DIRECT.GET." + stream + ".>",
		"$JS.API.CONSUMER.CREATE." + stream + ".>",
		"$JS.API.CONSUMER.DELETE." + stream + ".>",
		"$JS.FC." + stream + ".>",
	}
}

// PutArtifact puts content in the artifacts' bucket (making the bucket
// when it is not there) and returns its name. Content already there under
// that name is not sent again.
func (c *Conn) PutArtifact(ctx context.Context, content []byte) (string, error) {
	if len(content) > MaxArtifact {
		return "", fmt.Errorf("%w of %d bytes: at most %d", ErrArtifact, len(content), MaxArtifact)
	}
	name := ArtifactName(content)
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	obs, err := artifactBucket(ctx, c.JS, true)
	if err != nil {
		return "", c.apiError("the artifacts' bucket", err)
	}
	if info, err := obs.GetInfo(ctx, name); err == nil && info.Size == uint64(len(content)) && !info.Deleted {
		return name, nil
	}
	if _, err := obs.Put(ctx, jetstream.ObjectMeta{Name: name}, bytes.NewReader(content)); err != nil {
		return "", c.apiError("putting artifact "+name, err)
	}
	return name, nil
}

// ArtifactCache is a worker's store of artifacts: a folder on its disk
// holding each artifact fetched, as a file named by the artifact's name,
// at most a number of bytes in all (the least recently used go first). Get
// fetches an artifact from the broker once and then reads it from disk;
// every read is checked against the name. It is safe for concurrent use:
// the games a worker plays at once fetch an artifact once between them.
type ArtifactCache struct {
	js       jetstream.JetStream
	dir      string
	maxBytes int64

	mu       sync.Mutex
	obs      jetstream.ObjectStore
	fetching map[string]*fetchCall
	fetched  int // artifacts fetched from the broker
}

type fetchCall struct {
	done chan struct{}
	data []byte
	err  error
}

// NewArtifactCache returns the cache of artifacts in dir (made when the
// first artifact is kept; "": DefaultArtifactDir), at most maxBytes on disk (0:
// DefaultArtifactCache), fetching from the broker of conn.
func NewArtifactCache(conn *Conn, dir string, maxBytes int64) (*ArtifactCache, error) {
	if maxBytes < 0 {
		return nil, fmt.Errorf("cluster: an artifact cache of %d bytes: want 0 (the default) or more", maxBytes)
	}
	if maxBytes == 0 {
		maxBytes = DefaultArtifactCache
	}
	if dir == "" {
		dir = DefaultArtifactDir()
	}
	return &ArtifactCache{js: conn.JS, dir: dir, maxBytes: maxBytes, fetching: map[string]*fetchCall{}}, nil
}

// DefaultArtifactDir is the folder of a worker's artifacts when its
// options name none: gametune/artifacts in the user's cache folder (the
// system's temporary folder when there is none).
func DefaultArtifactDir() string {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	return filepath.Join(base, "gametune", "artifacts")
}

// Fetched is the number of artifacts this cache fetched from the broker.
func (c *ArtifactCache) Fetched() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fetched
}

// Get returns the content of the artifact named name: from the disk when
// it is there and matches its name, else from the broker (and then kept).
// Its errors wrap ErrArtifact and name the artifact.
func (c *ArtifactCache) Get(ctx context.Context, name string) ([]byte, error) {
	if !validArtifactName(name) {
		return nil, fmt.Errorf("%w %.80q: not a SHA-256 in hex", ErrArtifact, name)
	}
	c.mu.Lock()
	if call, ok := c.fetching[name]; ok {
		c.mu.Unlock()
		select {
		case <-call.done:
			return call.data, call.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	call := &fetchCall{done: make(chan struct{})}
	c.fetching[name] = call
	c.mu.Unlock()
	call.data, call.err = c.get(ctx, name)
	c.mu.Lock()
	delete(c.fetching, name)
	c.mu.Unlock()
	close(call.done)
	return call.data, call.err
}

func (c *ArtifactCache) get(ctx context.Context, name string) ([]byte, error) {
	path := filepath.Join(c.dir, name)
	if data, err := files.ReadLimited(path, MaxArtifact); err == nil {
		if ArtifactName(data) == name {
			now := time.Now()
			_ = os.Chtimes(path, now, now) // most recently used
			return data, nil
		}
		os.Remove(path) // damaged on disk: fetched again
	}
	data, err := c.fetch(ctx, name)
	if err != nil {
		return nil, err
	}
	err = os.MkdirAll(c.dir, 0o700)
	if err == nil {
		err = files.WriteAtomic(path, data, true)
	}
	if err != nil {
		return nil, fmt.Errorf("%w %s: keeping it on disk: %v", ErrArtifact, name, err)
	}
	c.evict(name)
	return data, nil
}

// fetch reads an artifact from the broker and checks it against its name.
func (c *ArtifactCache) fetch(ctx context.Context, name string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	c.mu.Lock()
	obs := c.obs
	c.mu.Unlock()
	if obs == nil {
		var err error
		if obs, err = artifactBucket(ctx, c.js, false); err != nil {
			return nil, fmt.Errorf("%w %s: %v", ErrArtifact, name, err)
		}
		c.mu.Lock()
		c.obs = obs
		c.mu.Unlock()
	}
	info, err := obs.GetInfo(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("%w %s: not on the broker: %v", ErrArtifact, name, err)
	}
	if info.Size > MaxArtifact {
		return nil, fmt.Errorf("%w %s: %d bytes, more than the %d a worker takes", ErrArtifact, name, info.Size, MaxArtifact)
	}
	r, err := obs.Get(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("%w %s: fetching it: %v", ErrArtifact, name, err)
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, MaxArtifact+1))
	if err != nil {
		return nil, fmt.Errorf("%w %s: fetching it: %v", ErrArtifact, name, err)
	}
	if got := ArtifactName(data); got != name {
		return nil, fmt.Errorf("%w %s: the broker's content has SHA-256 %s", ErrArtifact, name, got)
	}
	c.mu.Lock()
	c.fetched++
	c.mu.Unlock()
	return data, nil
}

// evict removes the least recently used artifacts until the cache holds
// at most its bytes; keep, the artifact just stored, stays even alone
// beyond them.
func (c *ArtifactCache) evict(keep string) {
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	type held struct {
		name string
		size int64
		used time.Time
	}
	var all []held
	var total int64
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !e.Type().IsRegular() || !validArtifactName(e.Name()) {
			continue
		}
		all = append(all, held{e.Name(), info.Size(), info.ModTime()})
		total += info.Size()
	}
	slices.SortFunc(all, func(a, b held) int { return a.used.Compare(b.used) })
	for _, h := range all {
		if total <= c.maxBytes {
			return
		}
		if h.name == keep {
			continue
		}
		if os.Remove(filepath.Join(c.dir, h.name)) == nil {
			total -= h.size
		}
	}
}
