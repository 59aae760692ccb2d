package cmd

import (
	"context"
	"strings"
	"testing"
)

// new says plainly who sits in the room it made and who hosts it; with
// --sit its creator sits down in it at once, and the room is among
// theirs (the lobby's YOUR GAMES, history).
func TestNewSeatsItsCreatorWhenAsked(t *testing.T) {
	s := newSet()
	mine := func(code string) bool {
		rooms, err := s.Lobby.History(context.Background(), alice.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rooms {
			if r.Code == code {
				return true
			}
		}
		return false
	}

	r := s.runLine(alice, "new --players 2", "")
	code := strings.TrimSpace(r.out)
	if r.status != 0 || !strings.Contains(r.err, "You host it") || !strings.Contains(r.err, "Nobody sits in it yet, not even you") {
		t.Errorf("new: status %d, said:\n%s", r.status, r.err)
	}
	if mine(code) {
		t.Errorf("new seated its creator unasked")
	}

	r = s.runLine(alice, "new --players 2 --sit", "")
	code = strings.TrimSpace(r.out)
	if r.status != 0 || !strings.Contains(r.err, "You sit in seat 1: it shows under YOUR GAMES") || strings.Contains(r.err, "Nobody sits") {
		t.Fatalf("new --sit: status %d, said:\n%s", r.status, r.err)
	}
	if !mine(code) {
		t.Errorf("new --sit did not seat its creator: %s is not among alice's rooms", code)
	}
	info, err := s.Lobby.Info(context.Background(), code, alice)
	if err != nil || info.SeatOf(alice.ID) != 0 || info.HostSeat != 0 {
		t.Errorf("after new --sit: alice in seat %d, host seat %d, %v", info.SeatOf(alice.ID), info.HostSeat, err)
	}
}
