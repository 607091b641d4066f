package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfiled: GAMETUNE_CPUPROFILE writes a profile to a new file and
// refuses, exit 2, a file that exists, leaving it as it was.
func TestProfiled(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cpu.pprof")
	var stderr bytes.Buffer
	if code := profiled(path, &stderr, func() int { return exitOK }); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	data, err := os.ReadFile(path)
	if err != nil || len(data) == 0 {
		t.Fatalf("profile: %d bytes, %v", len(data), err)
	}
	os.WriteFile(path, []byte("mine"), 0o644)
	ran := false
	if code := profiled(path, &stderr, func() int { ran = true; return exitOK }); code != exitUsage || ran || !strings.Contains(stderr.String(), cpuProfileEnv) {
		t.Fatalf("existing file: exit %d, ran %v, %q", code, ran, stderr.String())
	}
	if data, _ := os.ReadFile(path); string(data) != "mine" {
		t.Fatalf("the existing file was overwritten: %q", data)
	}
}
