// Command smokeload measures how long a player's move takes to reach the
// other players' screens when they sit on different smokestack instances
// sharing one Redis, against the same with everyone on one instance.
//
//	smokeload                          # own redis-server and two instances, 200 moves
//	smokeload --moves 1000 --rooms 4 --json
//	smokeload --targets 127.0.0.1:2301,127.0.0.1:2302   # deploy/local-cluster.sh's instances
//
// Every number is over real SSH: a move is a line sent to a `play`
// session on instance A; a frame is the first bytes of the redraw on a
// terminal (`watch CODE` on a PTY) on instance B, or on A. See
// docs/operations.md, "Measuring latency", and `smokeload --help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	if os.Getenv(childEnv) == "1" {
		os.Exit(serveChildMain())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}
