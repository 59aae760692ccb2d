package main

import (
	"context"
	"time"
)

// keepIdle puts the clients in the idle class now (yieldCores), and
// again every second until ctx ends, for the threads the runtime makes
// meanwhile.
func keepIdle(ctx context.Context) error {
	if err := yieldCores(); err != nil {
		return err
	}
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				yieldCores()
			}
		}
	}()
	return nil
}
