package room

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/smokestack/smokestack/lobby/store"
)

// RematchInfo is a rematch offer as anyone in the room sees it.
type RematchInfo struct {
	// Accepted holds the seats that said yes.
	Accepted []int `json:"accepted"`
	// Code is the new room's, once every seat accepted and it was made:
	// its seats are bound to the same players, who join it by this code.
	Code string `json:"code,omitempty"`
}

func rematchInfo(o *store.Rematch) *RematchInfo {
	if o == nil {
		return nil
	}
	i := &RematchInfo{Accepted: slices.Clone(o.Accepted)}
	if o.Started {
		i.Code = o.Code
	}
	return i
}

// Waiting returns the seats of r that have not accepted yet.
func (i *RematchInfo) Waiting(seats int) []int {
	var out []int
	for s := range seats {
		if i == nil || !slices.Contains(i.Accepted, s) {
			out = append(out, s)
		}
	}
	return out
}

// errCodeTaken says the code drawn for a rematch belongs to another room.
var errCodeTaken = errors.New("the rematch's room code is taken")

// rematchOffer is the offer p accepts in the finished game m: the one
// made, or a new one; fresh, unless "", is a code drawn again after the
// offer's was taken. done says the rematch is made already.
func (e *Env) rematchOffer(m store.Meta, p Player, fresh string) (off store.Rematch, done bool, err error) {
	seat := m.SeatOf(p.ID)
	switch {
	case seat < 0:
		return off, false, Refuse("only the players of this game can ask for a rematch", "lobby.rematchPlayers")
	case !m.Over:
		return off, false, Refuse("a rematch can be asked for once the game is over", "lobby.rematchNotOver")
	case m.Result == nil:
		return off, false, Refuse("this game was stopped before its end: start a new room instead", "lobby.rematchStopped")
	case m.Rematch != nil && m.Rematch.Started:
		return off, true, nil
	}
	if m.Rematch != nil {
		off = *m.Rematch
		off.Accepted = slices.Clone(off.Accepted)
	} else {
		off = store.Rematch{Code: NewCode(), Seed: e.Seed()}
		if !m.Public {
			off.Secret = NewSecret()
		}
	}
	if fresh != "" {
		off.Code = fresh
	}
	for i, s := range m.Seats {
		if (i == seat || s.Bot != "") && !slices.Contains(off.Accepted, i) {
			off.Accepted = append(off.Accepted, i)
		}
	}
	return off, false, nil
}

// createRematch makes the rematch room of the game m as off describes it:
// every seat taken, so its game starts at once, with the table's grace
// period and clock, and its first round stored for the room lists as a
// room that filled up stores it. A room already made with that code and
// seed by another acceptance counts as made. t is a table of the game,
// for its rules.
func (e *Env) createRematch(ctx context.Context, t table, m store.Meta, off store.Rematch) error {
	now := e.Now().UTC()
	nm := store.Meta{Code: off.Code, Game: m.Game, Public: m.Public, Secret: off.Secret, Host: m.Host, HostAddr: m.HostAddr,
		Seats: slices.Clone(m.Seats), Options: m.Options, Seed: off.Seed, Started: true, StartedAt: now,
		Grace: m.Grace, Clock: m.Clock, Created: now, Updated: now, Version: 1}
	st, err := t.opening(&nm)
	if err != nil {
		return fmt.Errorf("start the rematch of room %s: %w", m.Code, err)
	}
	nm.SetStatus(st)
	err = e.Store.Create(ctx, nm)
	if errors.Is(err, store.ErrExists) {
		got, _, lerr := e.Store.Load(ctx, off.Code, math.MaxInt)
		if lerr != nil {
			return e.Unavailable("load room "+off.Code, lerr)
		}
		if got.Seed != off.Seed || got.Game != m.Game {
			return errCodeTaken
		}
		return nil
	}
	if err != nil {
		return e.Unavailable(fmt.Sprintf("create the rematch of room %s", m.Code), err)
	}
	return nil
}

// dropRematch removes the room made as created when another acceptance's
// room, won: only when two acceptances drew fresh codes at once after a
// code clash.
func (e *Env) dropRematch(ctx context.Context, created, won string) {
	if created == "" || created == won {
		return
	}
	if err := e.Store.Delete(ctx, created); err != nil {
		e.Fault("drop a rematch room", err, "code", created)
	}
}
