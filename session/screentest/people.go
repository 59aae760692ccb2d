package screentest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/engine/factories/bot"
	"github.com/smokestack/smokestack/lobby"
)

// PlayPeople plays the room code to its end with each of players in a
// seat of their own, through their own connections, one move at a time:
// choose gets a seat's newest view and returns its move, or false when
// the seat has nothing to play; over says from a seat's view that the
// game ended. A game between people counts in their records, so the
// screens of its end show ratings.
func PlayPeople(t *testing.T, l *lobby.Lobby, code string, players []lobby.Player,
	choose func(seat int, view json.RawMessage) (json.RawMessage, bool), over func(view json.RawMessage) bool) {
	t.Helper()
	ctx := context.Background()
	conns := make([]*lobby.Conn, len(players))
	for _, p := range players {
		c, err := l.Join(ctx, code, p)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns[c.Seat()] = c
	}
	latest := make([]lobby.Update, len(conns))
	for range 20000 {
		for i, c := range conns {
			for more := true; more; {
				select {
				case latest[i] = <-c.Updates():
				default:
					more = false
				}
			}
		}
		if len(latest[0].View) > 0 && over(latest[0].View) {
			return
		}
		for i, c := range conns {
			if len(latest[i].View) == 0 {
				continue
			}
			mv, ok := choose(i, latest[i].View)
			if !ok {
				continue
			}
			if err := c.Move(ctx, mv); err != nil {
				t.Fatal(err)
			}
			latest[i] = <-c.Updates()
			break
		}
	}
	t.Fatal("the game did not end")
}

// PlayFactories plays the Fantastic Factories room code to its end with
// each of players in a seat of their own, every seat moved by a seeded
// random bot, so the game is the same on every run.
func PlayFactories(t *testing.T, l *lobby.Lobby, code string, players ...lobby.Player) {
	t.Helper()
	bots := make([]bot.Bot, len(players))
	for i := range bots {
		bots[i], _ = bot.New("random", uint64(i+5))
	}
	PlayPeople(t, l, code, players, func(seat int, raw json.RawMessage) (json.RawMessage, bool) {
		var v factories.View
		if json.Unmarshal(raw, &v) != nil || len(v.Legal) == 0 {
			return nil, false
		}
		data, _ := json.Marshal(bots[seat].Choose(v))
		return data, true
	}, func(raw json.RawMessage) bool {
		var v factories.View
		return json.Unmarshal(raw, &v) == nil && v.Phase == factories.GameOver
	})
}
