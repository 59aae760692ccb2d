//go:build unix

package session_test

import (
	"syscall"
	"testing"
	"time"
)

// processCPU is the CPU time the test process has used, user and system:
// on a machine others load, a benchmark's wall time per op moves with
// their work far more than its CPU time does.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the process's CPU time per op since start
// (processCPU), the collector's included, as cpu-ns/op.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
}
