package server

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby"
)

// TestPlayThroughGuestRestart is a guest through a server restart: a
// player without a key sits down at a game and is shown their seat word
// once; the server restarts mid-game, and the note that replaces the
// table repeats the word and the command to come back with, which takes
// the new guest connection back to the same seat.
func TestPlayThroughGuestRestart(t *testing.T) {
	dir := t.TempDir()
	srv := startServerIn(t, dir, func(*lobby.Config) {})
	guest := guestSitsDown(t, srv.addr, "visitor", 80, 24, "")
	guest.sees("OPEN SEATS", "Guest: your seat word brings you back")
	guest.press("n")
	guest.sees("NEW ROOM")
	guest.press("enter")
	guest.sees("WAITING ROOM", "You are a guest")
	sat := regexp.MustCompile(`join ([A-Z0-9]{6}) ([a-z]+-[0-9]+)`).FindStringSubmatch(guest.screen())
	if sat == nil {
		t.Fatalf("the guest was never shown a seat word:\n%s", guest.screen())
	}
	code, word := sat[1], sat[2]

	bob := sitDown(t, srv.addr, "bob", 80, 24, "join "+code)
	bob.sees("YOU ♥ bob", "MARKETPLACE")
	guest.sees("MARKETPLACE", "YOU ♠ guest-")

	// The restart: the guest's terminal is given back with the note, and
	// the word and the way back under it.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	go srv.Shutdown(ctx)
	guest.sees(restartNote.Error(), "Your seat word in room "+code+" is "+word,
		"join "+code+" "+word)
	bob.sees(restartNote.Error())
	bob.seesNo("Your seat word") // a key needs none
	srv.Close()
	srv.store.Close()

	srv = startServerIn(t, dir, func(*lobby.Config) {})
	guest.addr, bob.addr = srv.addr, srv.addr
	guest.connect("join " + code + " " + word)
	guest.sees("MARKETPLACE", "YOU ♠ guest-")
	guest.seesNo("every seat in this room is taken")
	bob.connect("join " + code)
	bob.sees("YOU ♥ bob", "MARKETPLACE")
}
