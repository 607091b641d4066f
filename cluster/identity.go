package cluster

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/gametune/gametune/files"
	"github.com/gametune/gametune/secretfile"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"
)

// Workers' identities. Each worker may have a key of its own (an NKey: the
// worker keeps the seed, the broker knows the public key), instead of the
// token the coordinators hold. A worker with a key may only do what a
// worker does (WorkerPermissions): pull jobs from the workers' consumer,
// acknowledge them and publish results; it cannot create or delete
// streams, publish jobs or read other runs' results. A key is revoked by
// removing it from the broker's list and restarting the broker.

// maxWorkerKeys bounds the list of workers' keys a broker reads.
const maxWorkerKeys = 10_000

// WorkerPermissions are the subjects a worker with a key of its own may
// publish and subscribe to: the JetStream API calls of a worker on the
// workers' consumer, its acknowledgements, results, and replies.
func WorkerPermissions() *server.Permissions {
	return &server.Permissions{
		Publish: &server.SubjectPermission{Allow: []string{
			"$JS.API.STREAM.INFO." + JobsStream,
			"$JS.API.STREAM.INFO." + ResultsStream,
			"$JS.API.CONSUMER.INFO." + JobsStream + "." + WorkersConsumer,
			"$JS.API.CONSUMER.MSG.NEXT." + JobsStream + "." + WorkersConsumer,
			"$JS.ACK." + JobsStream + "." + WorkersConsumer + ".>",
			resultsPrefix + "*",
		}},
		Subscribe: &server.SubjectPermission{Allow: []string{"_INBOX.>"}},
	}
}

// NewWorkerKey makes a worker's key: it writes the seed to a new file at
// path (mode 0600; an existing file is not overwritten) and returns the
// public key, for the broker's list (BrokerOptions.WorkerKeys).
func NewWorkerKey(path string) (string, error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return "", fmt.Errorf("cluster: making a worker key: %w", err)
	}
	defer kp.Wipe()
	seed, err := kp.Seed()
	if err != nil {
		return "", fmt.Errorf("cluster: making a worker key: %w", err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return "", fmt.Errorf("cluster: making a worker key: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("cluster: the worker key file: %w (a key is never overwritten)", err)
	}
	if _, err = f.Write(append(seed, '\n')); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return "", fmt.Errorf("cluster: writing the worker key %s: %w", path, err)
	}
	return pub, nil
}

// ReadWorkerKey reads a worker's key file (NewWorkerKey): a plain file
// readable by its owner alone (secretfile.Read) holding a user's NKey seed.
func ReadWorkerKey(path string) ([]byte, error) {
	data, err := secretfile.Read(path, "worker key file")
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	seed := bytes.TrimSpace(data)
	kp, err := nkeys.FromSeed(seed)
	if err != nil {
		return nil, fmt.Errorf("cluster: worker key file %s: not an NKey seed ('tune worker --new-key F' makes one): %w", path, err)
	}
	defer kp.Wipe()
	if pub, err := kp.PublicKey(); err != nil || !nkeys.IsValidPublicUserKey(pub) {
		return nil, fmt.Errorf("cluster: worker key file %s: not a user's seed (want one starting with SU)", path)
	}
	return seed, nil
}

// ReadWorkerKeys reads the broker's list of workers' public keys: one key
// per line (starting with U), then optionally a name; blank lines and
// lines starting with # are skipped. The file must be a plain file of at
// most 1 MiB; a key that does not check is an error naming its line.
func ReadWorkerKeys(path string) ([]string, error) {
	data, err := readPlainFile(path, "worker keys file", 1<<20)
	if err != nil {
		return nil, err
	}
	var keys []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key := strings.Fields(line)[0]
		if !nkeys.IsValidPublicUserKey(key) {
			return nil, fmt.Errorf("cluster: worker keys file %s, line %d: %.60q is not a worker's public key (want the U... key 'tune worker --new-key' prints)", path, n, key)
		}
		if !seen[key] {
			seen[key] = true
			keys = append(keys, key)
		}
		if len(keys) > maxWorkerKeys {
			return nil, fmt.Errorf("cluster: worker keys file %s: more than %d keys", path, maxWorkerKeys)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("cluster: worker keys file %s: %w", path, err)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("cluster: worker keys file %s lists no key", path)
	}
	return keys, nil
}

// readPlainFile reads a file that is not secret (certificates, public
// keys) but must be a regular file of at most limit bytes: it never blocks
// on a FIFO or a device.
func readPlainFile(path, what string, limit int64) ([]byte, error) {
	data, err := files.ReadLimited(path, limit)
	if err != nil {
		return nil, fmt.Errorf("cluster: %s: %w", what, err)
	}
	return data, nil
}
