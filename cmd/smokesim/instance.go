package main

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/internal/tally"
	"github.com/smokestack/smokestack/lobby"
	redisstore "github.com/smokestack/smokestack/lobby/store/redis"
)

// instance is one simulated smokestack server: its own cluster client
// (so its own origin in the store's announcements) and its own
// lobby.Lobby, running as `smokestack serve` runs it, without SSH.
type instance struct {
	id    int
	store *redisstore.Store
	lobby *lobby.Lobby
	log   *counting
	stop  context.CancelFunc
	done  chan struct{}
	// started is when its lobby began to run, from which its presence
	// renewals tick; died when it was killed.
	started, died time.Time
}

// instanceConfig is what every simulated instance shares.
type instanceConfig struct {
	url    string
	ttl    time.Duration // presence TTL
	expire time.Duration // 0: no expiry pass
	now    func() time.Time
}

// simGames are the games the instances offer: the server's own (the
// rooms the players sit in play Fantastic Factories, the default), and
// tally, a short game the rating rooms play to its end in a minute.
func simGames() []lobby.Game {
	return append(games.Lobby(games.All()), lobby.Game{Rules: tally.Rules})
}

// startInstance opens a store on the cluster and runs a lobby on it until
// stop (or kill).
func startInstance(ctx context.Context, id int, c instanceConfig) (*instance, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	s, err := redisstore.OpenCluster(ctx, c.url)
	if err != nil {
		return nil, err
	}
	in := &instance{id: id, store: s, log: &counting{}, done: make(chan struct{})}
	in.lobby = lobby.New(lobby.Config{Store: s, Games: simGames(), PresenceTTL: c.ttl, Expire: c.expire, Now: c.now,
		Logger: slog.New(in.log)})
	run, stop := context.WithCancel(context.Background())
	in.stop, in.started = stop, time.Now()
	go func() {
		defer close(in.done)
		in.lobby.Run(run)
	}()
	return in, nil
}

// close stops the instance as `smokestack serve` stops: the lobby
// withdraws its claims, then the store closes.
func (in *instance) close() {
	in.stop()
	<-in.done
	in.store.Close()
}

// kill drops the instance as a crashed process would: its store closes
// first, so it cannot withdraw its claims on the way out.
func (in *instance) kill() {
	in.died = time.Now()
	in.store.Close()
	in.stop()
	<-in.done
}

// counting is a slog.Handler that counts what the lobby logs: rooms
// expired (which instance did the expiry) and warnings and errors (store
// faults, which a healthy run has none of).
type counting struct {
	expired atomic.Int64
	faults  atomic.Int64
	last    atomic.Value // the last fault's message, a string
}

func (h *counting) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelInfo }

func (h *counting) Handle(_ context.Context, r slog.Record) error {
	switch {
	case r.Message == "room expired":
		h.expired.Add(1)
	case r.Level >= slog.LevelWarn:
		h.faults.Add(1)
		msg := r.Message
		r.Attrs(func(a slog.Attr) bool {
			msg += " " + a.String()
			return true
		})
		h.last.Store(msg)
	}
	return nil
}

func (h *counting) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *counting) WithGroup(string) slog.Handler      { return h }
