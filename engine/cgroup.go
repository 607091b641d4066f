package engine

import (
	"bufio"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// CgroupMemoryLimit is the memory limit in bytes of this process's control
// group, read under root ("/" on a live system; a crafted tree in tests):
// the groups named in root/proc/self/cgroup, cgroup v2's memory.max under
// root/sys/fs/cgroup and v1's memory.limit_in_bytes under
// root/sys/fs/cgroup/memory, the smallest over each group and its
// ancestors (a container sees its own group as the root of the mount, so
// a host path that is not there falls back to the mount's root). It is 0
// when no limit is set ("max", or v1's huge number) or none can be read.
// It reads a few small files, each at most maxCgroupFile bytes.
func CgroupMemoryLimit(root string) uint64 {
	data := readSmall(filepath.Join(root, "proc", "self", "cgroup"))
	var limit uint64
	for _, line := range strings.Split(data, "\n") {
		// hierarchy-id:controllers:path; v2 is "0::path".
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 || !strings.HasPrefix(parts[2], "/") {
			continue
		}
		var dir, file string
		switch {
		case parts[0] == "0" && parts[1] == "":
			dir, file = filepath.Join(root, "sys", "fs", "cgroup"), "memory.max"
		case hasController(parts[1], "memory"):
			dir, file = filepath.Join(root, "sys", "fs", "cgroup", "memory"), "memory.limit_in_bytes"
		default:
			continue
		}
		for group := path.Clean(parts[2]); ; group = path.Dir(group) {
			limit = smallerLimit(limit, readLimit(filepath.Join(dir, filepath.FromSlash(group), file)))
			if group == "/" {
				break
			}
		}
	}
	return limit
}

// maxCgroupFile bounds each file CgroupMemoryLimit reads.
const maxCgroupFile = 64 << 10

// unlimited is where cgroup v1 numbers stop meaning a limit: v1 writes "no
// limit" as the largest multiple of the page size below 1<<63.
const unlimited = 1 << 62

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// readLimit reads a limit file: 0 for "max", a number past unlimited, or
// anything unreadable.
func readLimit(file string) uint64 {
	s := strings.TrimSpace(readSmall(file))
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n >= unlimited {
		return 0
	}
	return n
}

// readSmall reads at most maxCgroupFile bytes of file ("" on any error).
func readSmall(file string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	data, err := io.ReadAll(bufio.NewReader(io.LimitReader(f, maxCgroupFile)))
	if err != nil {
		return ""
	}
	return string(data)
}

// smallerLimit is the smaller of two limits, 0 meaning none.
func smallerLimit(a, b uint64) uint64 {
	if a == 0 || (b != 0 && b < a) {
		return b
	}
	return a
}

// memoryOf is the memory a process may use on a host of host bytes under
// a control group limit of limit bytes (each 0 when unknown or unlimited).
func memoryOf(host, limit uint64) uint64 { return smallerLimit(host, limit) }
