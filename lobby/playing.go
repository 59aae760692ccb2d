package lobby

import (
	"context"
	"slices"

	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
)

// What the lobby does with one room for a player: seat them or let them
// watch, describe it, seat a bot, end its game. The room does the work
// (seating.go, commit.go).

// Join seats p in the room invite names (its code; a private room's
// invite, unless p holds a seat there or is its host), or back in the seat
// bound to their key, and returns a connection that receives the seat's
// view. A guest coming back adds their seat word: "CODE WORD"
// (seatword.go).
func (l *Lobby) Join(ctx context.Context, invite string, p Player) (*Conn, error) {
	invite, word := SplitSeatWord(invite)
	r, _, err := l.open(ctx, invite, word, p)
	if err != nil {
		return nil, err
	}
	// A seat binds to a profile: a new key's is made as it sits down,
	// not for a room it cannot sit in.
	m := r.Meta()
	sits := m.SeatOf(p.ID) < 0 && !m.Started && slices.ContainsFunc(m.Seats, store.Seat.Free)
	if sits {
		if p, err = l.ensureProfile(ctx, p, ""); err != nil {
			return nil, err
		}
	}
	return r.Join(ctx, p, word)
}

// Watch connects p as a spectator of the room invite names: the public
// view only.
func (l *Lobby) Watch(ctx context.Context, invite string, p Player) (*Conn, error) {
	invite, word := SplitSeatWord(invite)
	r, share, err := l.open(ctx, invite, word, p)
	if err != nil {
		return nil, err
	}
	return r.Watch(p, share), nil
}

// Info returns the public description of the room invite names, as p
// would find it joining.
func (l *Lobby) Info(ctx context.Context, invite string, p Player) (RoomInfo, error) {
	invite, word := SplitSeatWord(invite)
	r, _, err := l.open(ctx, invite, word, p)
	if err != nil {
		return RoomInfo{}, err
	}
	return r.Info(), nil
}

// AddBot puts a bot in a free seat: only the room's host may, or while
// the host is away the player standing in. On the seat of a player who is
// away it is by's vote to hand the seat to the game's default bot (Vote).
func (l *Lobby) AddBot(ctx context.Context, code string, by Player, seat int, bot string) error {
	r, err := l.room(ctx, code)
	if err != nil {
		return err
	}
	// The game, unlike r.meta, is fixed for the room's life: no lock.
	if err := room.CheckBot(r.Game(), bot); err != nil {
		return err
	}
	return r.AddBot(ctx, by, seat, bot)
}

// EndedByHost is why a game the host ended stopped (RoomInfo.Ended), as
// stored: sessions word it in their players' languages.
const EndedByHost = "ended by the host"

// End stops an unfinished game for good. Only the room's host may.
func (l *Lobby) End(ctx context.Context, code string, by Player) error {
	r, err := l.room(ctx, code)
	if err != nil {
		return err
	}
	return r.End(ctx, &by, EndedByHost)
}
