package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/server"
)

// serveChildMain is the server process of capacity mode: what `smokestack
// serve` runs with its default limits, over a bbolt store in a temporary
// directory, with metrics on a loopback port. It prints "SSH METRICS"
// addresses on one line, logs warnings and errors to stderr, and shuts
// down when its input ends.
func serveChildMain() int {
	if err := serveChild(); err != nil {
		fmt.Fprintln(os.Stderr, "smokeload server:", err)
		return 1
	}
	return 0
}

func serveChild() error {
	dir, err := os.MkdirTemp("", "smokeload-server-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	store, err := lobby.OpenBolt(filepath.Join(dir, "rooms.db"))
	if err != nil {
		return err
	}
	defer store.Close()
	key, err := newKey() // the host key
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	metrics := server.NewMetrics("bolt")
	lb := lobby.New(lobby.Config{Store: store, Games: loadGames, Logger: log,
		Limits: lobby.DefaultLimits(), Observer: metrics, Expire: 24 * time.Hour})
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go lb.Run(ctx)
	srv, err := server.New(server.Config{HostKey: key, Lobby: lb, Screens: loadScreens, Logger: log, IdleTimeout: time.Hour,
		Limits: server.DefaultLimits(), Metrics: metrics})
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	ml, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go (&http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 5 * time.Second}).Serve(ml)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	fmt.Printf("%s %s\n", l.Addr(), ml.Addr())
	io.Copy(io.Discard, os.Stdin)
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if srv.Shutdown(shut) != nil {
		srv.Close()
	}
	return <-served
}
