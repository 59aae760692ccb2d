package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// chat holds the store's chat to the contract: lines kept per room and
// for the lobby, in order, trimmed to the newest, read back as many as
// asked for, and forgotten with the room.
func chat(t *testing.T, s store.Chats) {
	ctx := context.Background()
	// Unique codes and texts, as a shared Redis may hold others'.
	a, b, run := newCode(), newCode(), newCode()
	line := func(i int, ch string) store.ChatLine {
		return store.ChatLine{ID: fmt.Sprintf("%s-%d", run, i), At: t0.Add(time.Duration(i) * time.Second),
			Name: "hana", Seat: i % 2, Channel: ch, Text: fmt.Sprintf("%s line %d ✓", run, i), Me: i%3 == 0}
	}
	var saidA []store.ChatLine
	for i := range 7 {
		l := line(i, store.ChatPlayers)
		if err := s.AddChat(ctx, a, l, 5); err != nil {
			t.Fatal(err)
		}
		saidA = append(saidA, l)
	}
	other := line(100, store.ChatSpectators)
	if err := s.AddChat(ctx, b, other, 5); err != nil {
		t.Fatal(err)
	}
	lobbyLine := line(200, store.ChatLobby)
	lobbyLine.Seat = -1
	if err := s.AddChat(ctx, "", lobbyLine, 50); err != nil {
		t.Fatal(err)
	}

	same := func(what string, got, want []store.ChatLine) {
		t.Helper()
		if !slices.EqualFunc(got, want, sameLine) {
			t.Errorf("%s: got %d lines %+v, want %d %+v", what, len(got), got, len(want), want)
		}
	}
	got, err := s.Chat(ctx, a, 0)
	if err != nil {
		t.Fatal(err)
	}
	same("room a, trimmed to 5", got, saidA[2:])
	got, _ = s.Chat(ctx, a, 3)
	same("room a, newest 3", got, saidA[4:])
	got, _ = s.Chat(ctx, b, 0)
	same("room b", got, []store.ChatLine{other})
	got, _ = s.Chat(ctx, "", 1)
	same("lobby, newest", got, []store.ChatLine{lobbyLine})
	got, _ = s.Chat(ctx, newCode(), 0)
	same("a room nobody spoke in", got, nil)

	if err := s.DeleteChat(ctx, a); err != nil {
		t.Fatal(err)
	}
	got, _ = s.Chat(ctx, a, 0)
	same("room a after delete", got, nil)
	got, _ = s.Chat(ctx, b, 0)
	same("room b after a's delete", got, []store.ChatLine{other})
	if err := s.DeleteChat(ctx, newCode()); err != nil {
		t.Errorf("delete the chat of a room nobody spoke in: %v", err)
	}
	// Spoken in again after a delete, the room starts afresh.
	if err := s.AddChat(ctx, a, saidA[0], 5); err != nil {
		t.Fatal(err)
	}
	got, _ = s.Chat(ctx, a, 0)
	same("room a spoken in again", got, saidA[:1])
}

func sameLine(a, b store.ChatLine) bool {
	a.At, b.At = a.At.UTC(), b.At.UTC()
	return a == b
}
