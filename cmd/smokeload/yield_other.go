//go:build !linux

package main

import "errors"

// yieldCores needs Linux's SCHED_IDLE (yield_linux.go).
func yieldCores() error {
	return errors.New("--clients-idle needs Linux's idle scheduling class")
}
