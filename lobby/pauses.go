package lobby

import (
	"context"
	"time"
)

// aliveEvery is how often a running instance says so in the store.
const aliveEvery = 2 * time.Second

// aliveStale is the silence that is a downtime: two missed words and a
// margin, so a slow write is not one.
const aliveStale = 5 * time.Second

// stayAlive says in the store that this instance runs, at once and every
// aliveEvery until ctx ends, and once more then (a clean shutdown's
// downtime starts at its end); each answer updates the lobby's pauses. A
// store that cannot be reached only leaves them as they were. The caller
// sets l.pauses.running first.
func (l *Lobby) stayAlive(ctx context.Context) {
	first := true
	say := func(ctx context.Context) {
		down, err := l.cfg.Store.Alive(ctx, l.cfg.Now(), aliveStale)
		l.serviceAway(err != nil)
		if err != nil {
			l.storeFault("uptime", err)
			return
		}
		l.pauses.Set(down)
	}
	tick := time.NewTicker(aliveEvery)
	defer tick.Stop()
	for {
		round, cancel := context.WithTimeout(ctx, aliveEvery)
		say(round)
		cancel()
		if first {
			l.pauses.Known()
			first = false
		}
		select {
		case <-ctx.Done():
			bye, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
			say(bye)
			cancel()
			return
		case <-tick.C:
		}
	}
}
