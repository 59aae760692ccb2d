// Command smokestack serves board games over SSH: those the registry
// (cmd/games) lists.
//
//	smokestack [serve] [flags]   run the server (the default)
//	smokestack simulate [flags]  play bot games headless and report
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/lobby"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `smokestack: %s over SSH.

usage:
  smokestack [serve] [flags]    run the SSH server (the default)
  smokestack simulate [flags]   play bot games headless and report win rates
  smokestack help               show this help

Run "smokestack serve --help" for the server's flags and environment.
`

// run runs one subcommand and returns the process's exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	name := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	var err error
	switch name {
	case "serve":
		err = serveCmd(ctx, args, stdout, stderr)
	case "simulate":
		err = simulateCmd(ctx, args, stdout, stderr)
	case "help":
		fmt.Fprintf(stdout, usage, lobby.Titles(games.Lobby(games.All())))
		return 0
	default:
		fmt.Fprintf(stderr, "smokestack: unknown command %q\n\n"+usage, name, lobby.Titles(games.Lobby(games.All())))
		return 2
	}
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errFlags):
		return 2 // the flag package already said what was wrong
	}
	fmt.Fprintf(stderr, "smokestack %s: %v\n", name, err)
	return 1
}
