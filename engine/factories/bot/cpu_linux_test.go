package bot

import (
	"syscall"
	"time"
)

// threadCPU is the CPU time the calling thread has used, user and
// system: a decision's cost that another process's load does not inflate.
// The caller locks its goroutine to its thread (runtime.LockOSThread).
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
