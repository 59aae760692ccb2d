package main

import (
	"context"
	"time"

	"github.com/smokestack/smokestack/lobby"
)

// Everything the simulation asks of a lobby, in one place: what a
// session does (make a room, sit, list, look at a room, the leaderboard).
// The lobby's and the store's insides are not touched, so the tool runs
// on any version of them that keeps these calls.

// identify is what the server does with a player who connects: a key
// known to a profile plays as that profile (its ID binds their seats).
func identify(ctx context.Context, l *lobby.Lobby, p lobby.Player) (lobby.Player, error) {
	return l.Identify(ctx, p)
}

// create opens a public room of four of game ("" the default) without a
// clock, so that rooms nobody moves in stay as they are.
func create(ctx context.Context, l *lobby.Lobby, host lobby.Player, game string) (string, error) {
	m, err := l.Create(ctx, host, lobby.CreateOptions{Game: game, Seats: 4, Public: true, Clock: lobby.ClockOff})
	return m.Code, err
}

// join seats p in the room code (or takes their seat back).
func join(ctx context.Context, l *lobby.Lobby, code string, p lobby.Player) (*lobby.Conn, error) {
	return l.Join(ctx, code, p)
}

// refresh is one lobby screen's refresh for p: the public rooms as they
// stand now, and p's own games waiting on them.
func refresh(ctx context.Context, l *lobby.Lobby, p lobby.Player) (public int, err error) {
	rooms, err := l.PublicRooms(ctx, time.Now())
	if err != nil {
		return 0, err
	}
	if _, err := l.Mine(ctx, p); err != nil {
		return 0, err
	}
	return len(rooms), nil
}

// listed reports whether the public rooms l lists now show code.
func listed(ctx context.Context, l *lobby.Lobby, code string) (bool, error) {
	rooms, err := l.PublicRooms(ctx, time.Now())
	if err != nil {
		return false, err
	}
	for _, r := range rooms {
		if r.Code == code {
			return true, nil
		}
	}
	return false, nil
}

// info is room code as p finds it through l.
func info(ctx context.Context, l *lobby.Lobby, code string, p lobby.Player) (lobby.RoomInfo, error) {
	return l.Info(ctx, code, p)
}

// ranked reports whether p is on game's leaderboard as l reads it (the
// board marks the viewer's own line).
func ranked(ctx context.Context, l *lobby.Lobby, game string, p lobby.Player) (bool, error) {
	top, err := l.Top(ctx, game, p, 10)
	if err != nil {
		return false, err
	}
	for _, s := range top {
		if s.You {
			return true, nil
		}
	}
	return false, nil
}
