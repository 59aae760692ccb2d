package lobby

import (
	"crypto/rand"
	"encoding/binary"
	"time"

	"github.com/smokestack/smokestack/lobby/room"
)

// newRoomEnv is the value every room of l is made with.
func (l *Lobby) newRoomEnv() *room.Env {
	e := &room.Env{Store: l.cfg.Store, Writes: l.cfg.Store, Started: l.started, Now: l.cfg.Now, AfterFunc: l.afterFunc, Seed: l.newSeed,
		Pauses: l.pauses, Log: l.cfg.Logger, Observer: l.observer(), Fault: l.storeFault, Away: l.away.Load,
		BotDelay: l.cfg.BotDelay, PresenceTTL: l.claims.ttl, MovesPerSecond: l.cfg.Limits.MovesPerSecond,
		Listed: l.roomsChanged, Claim: l.kickPresence, Record: l.recordRoom, ChatLine: l.newChatLine}
	if l.cluster != nil {
		e.Presence, e.Heartbeats = l.cluster, l.claims.heartbeats
	}
	return e
}

// afterFunc runs f after d on the lobby's timers.
func (l *Lobby) afterFunc(d time.Duration, f func()) (stop func() bool) {
	if l.cfg.AfterFunc != nil {
		return l.cfg.AfterFunc(d, f)
	}
	return time.AfterFunc(d, f).Stop
}

// newSeed draws the seed of a room created without a chosen one:
// Config.Seeds, or 64 bits from crypto/rand, so nobody can guess it.
func (l *Lobby) newSeed() uint64 {
	if l.cfg.Seeds != nil {
		return l.cfg.Seeds()
	}
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand.Read's documentation)
	return binary.LittleEndian.Uint64(b[:])
}
