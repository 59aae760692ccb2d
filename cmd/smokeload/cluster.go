package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby"
	redisstore "github.com/smokestack/smokestack/lobby/store/redis"
	"github.com/smokestack/smokestack/server"
)

// cluster is two smokestack instances of our own in this process, sharing
// one Redis: the many-instance deployment on loopback.
type cluster struct {
	addrs []string
	redis string // URL, for the report
	stops []func()
}

// startCluster starts redis-server (unless c.redis names one) and two
// instances on 127.0.0.1:0. Close stops everything it started.
func startCluster(ctx context.Context, c config, log *slog.Logger) (cl *cluster, err error) {
	cl = &cluster{redis: c.redis}
	defer func() {
		if err != nil {
			cl.Close()
		}
	}()
	if cl.redis == "" {
		dir, err := os.MkdirTemp("", "smokeload-redis-")
		if err != nil {
			return cl, err
		}
		cl.stops = append(cl.stops, func() { os.RemoveAll(dir) })
		r, err := redistest.Launch(dir)
		if err != nil {
			return cl, err
		}
		cl.stops = append(cl.stops, r.Kill)
		cl.redis = r.URL
		log.Info("redis-server started", "url", r.URL, "dir", dir)
	}
	g, err := gameNamed(c.game)
	if err != nil {
		return cl, err
	}
	for _, name := range []string{"A", "B"} {
		addr, stop, err := startInstance(ctx, cl.redis, g, log.With("instance", name))
		if err != nil {
			return cl, fmt.Errorf("instance %s: %w", name, err)
		}
		cl.stops = append(cl.stops, stop)
		cl.addrs = append(cl.addrs, addr)
		log.Info("instance started", "instance", name, "addr", addr)
	}
	return cl, nil
}

// Close stops the instances, then Redis, then removes its data.
func (cl *cluster) Close() {
	for i := len(cl.stops) - 1; i >= 0; i-- {
		cl.stops[i]()
	}
	cl.stops = nil
}

// startInstance runs what `smokestack serve --redis URL` runs: a lobby over
// a Redis store following other instances' changes, and the SSH server,
// here with a fresh host key and on a free loopback port.
func startInstance(ctx context.Context, redisURL string, g games.Game, log *slog.Logger) (addr string, stop func(), err error) {
	openCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	st, err := redisstore.Open(openCtx, redisURL)
	if err != nil {
		return "", nil, err
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		st.Close()
		return "", nil, err
	}
	key, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		st.Close()
		return "", nil, err
	}
	gs, screens := served(g)
	lb := lobby.New(lobby.Config{Store: st, Games: gs, Logger: log.With("part", "lobby")})
	lobbyCtx, stopLobby := context.WithCancel(context.Background())
	go lb.Run(lobbyCtx)
	srv, err := server.New(server.Config{HostKey: key, Lobby: lb, Screens: screens, Logger: log.With("part", "ssh")})
	if err != nil {
		stopLobby()
		st.Close()
		return "", nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		stopLobby()
		st.Close()
		return "", nil, err
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	stop = func() {
		srv.Close()
		if err := <-served; err != nil && !errors.Is(err, net.ErrClosed) {
			log.Warn("serve", "err", err)
		}
		stopLobby()
		st.Close()
	}
	return l.Addr().String(), stop, nil
}
