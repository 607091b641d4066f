package engine

import (
	"os"
	"path/filepath"
	"testing"
)

// writeTree writes files (path relative to root: content) under root.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCgroupMemoryLimit: the memory limit of the process's control group,
// read from crafted /proc and /sys trees: cgroup v2's memory.max and v1's
// memory.limit_in_bytes, the smallest over the group and its ancestors,
// "max" (and v1's huge number) meaning no limit (0).
func TestCgroupMemoryLimit(t *testing.T) {
	const gib = 1 << 30
	for _, tt := range []struct {
		name  string
		files map[string]string
		want  uint64
	}{
		{"v2 limit", map[string]string{
			"proc/self/cgroup":                        "0::/user.slice/job\n",
			"sys/fs/cgroup/user.slice/job/memory.max": "2147483648\n",
		}, 2 * gib},
		{"v2 max", map[string]string{
			"proc/self/cgroup":                        "0::/user.slice/job\n",
			"sys/fs/cgroup/user.slice/job/memory.max": "max\n",
			"sys/fs/cgroup/user.slice/memory.max":     "max\n",
		}, 0},
		{"v2 parent smaller", map[string]string{
			"proc/self/cgroup":             "0::/a/b\n",
			"sys/fs/cgroup/a/b/memory.max": "max\n",
			"sys/fs/cgroup/a/memory.max":   "1073741824\n",
		}, 1 * gib},
		{"v2 container namespace", map[string]string{
			"proc/self/cgroup":         "0::/\n",
			"sys/fs/cgroup/memory.max": "536870912\n",
		}, 512 << 20},
		{"v1 limit", map[string]string{
			"proc/self/cgroup": "12:pids:/docker/abc\n5:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n",
			"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": "3221225472\n",
		}, 3 * gib},
		{"v1 unlimited", map[string]string{
			"proc/self/cgroup":                           "4:memory:/\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n",
		}, 0},
		{"v1 host path, container's own root", map[string]string{
			"proc/self/cgroup":                           "4:memory:/docker/abc\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "1073741824\n",
		}, 1 * gib},
		{"v1 and v2 both: the smaller", map[string]string{
			"proc/self/cgroup": "4:memory:/x\n0::/y\n",
			"sys/fs/cgroup/memory/x/memory.limit_in_bytes": "1073741824\n",
			"sys/fs/cgroup/y/memory.max":                   "536870912\n",
		}, 512 << 20},
		{"no cgroup file", map[string]string{}, 0},
		{"garbage", map[string]string{
			"proc/self/cgroup":         "0::/\n",
			"sys/fs/cgroup/memory.max": "lots\n",
		}, 0},
		{"path escaping the tree", map[string]string{
			"proc/self/cgroup": "0::/../../etc\n",
			"etc/memory.max":   "1024\n",
		}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tt.files)
			if got := CgroupMemoryLimit(root); got != tt.want {
				t.Errorf("CgroupMemoryLimit = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestMemoryOf: the memory a table may take a share of is the smaller of
// the host's and the control group's limit, when each is known.
func TestMemoryOf(t *testing.T) {
	const gib = 1 << 30
	for _, tt := range []struct{ host, limit, want uint64 }{
		{8 * gib, 0, 8 * gib},
		{8 * gib, 2 * gib, 2 * gib},
		{8 * gib, 16 * gib, 8 * gib},
		{0, 2 * gib, 2 * gib},
		{0, 0, 0},
	} {
		if got := memoryOf(tt.host, tt.limit); got != tt.want {
			t.Errorf("memoryOf(%d, %d) = %d, want %d", tt.host, tt.limit, got, tt.want)
		}
	}
}
