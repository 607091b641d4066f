package engine

import "syscall"

// TotalMemory is the memory this process may use in bytes (0 if unknown):
// the machine's physical memory, or its control group's limit
// (CgroupMemoryLimit) when that is smaller, as in a container.
func TotalMemory() uint64 {
	var info syscall.Sysinfo_t
	var host uint64
	if err := syscall.Sysinfo(&info); err == nil {
		host = uint64(info.Totalram) * uint64(info.Unit)
	}
	return memoryOf(host, CgroupMemoryLimit("/"))
}
