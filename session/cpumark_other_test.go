//go:build !unix

package session_test

import (
	"testing"
	"time"
)

// processCPU is unknown here: no cpu-ns/op is reported.
func processCPU() time.Duration { return 0 }

func reportCPU(*testing.B, time.Duration) {}
