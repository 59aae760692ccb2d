//go:build !linux

package bot

import "time"

// threadCPU is not measured off Linux: the benchmarks report wall time
// alone there.
func threadCPU() (time.Duration, bool) { return 0, false }
