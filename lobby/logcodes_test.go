package lobby

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine"
)

// The play protocol's log comes as English lines and as codes a program
// can word in any language; each seat's codes hide what its lines hide.
func TestLogCodesAreTheSeatsOwn(t *testing.T) {
	drew := &LogEntry{Event: engine.Event{Seat: 0, Kind: "draw", Text: "drew 1 blueprint", Private: "drew Robot",
		Words: engine.Say("factories.log.drew", engine.Num("N", 1)), PrivateWords: engine.Say("factories.log.drewCards", engine.CardArg("Cards", "Robot"))}}
	round := &LogEntry{Event: engine.Event{Seat: -1, Kind: "round", Text: "round 2 begins", Words: engine.Say("factories.log.round", engine.Num("Round", 2))}}
	byBot := &LogEntry{Event: engine.Event{Seat: 1, Kind: "take", Text: "took Robot", Words: engine.Say("factories.log.take", engine.CardArg("Card", "Robot"))}, ByBot: true}
	room := RoomInfo{Seats: []SeatInfo{{Name: "ana"}, {Name: "bo"}}}
	for seat, want := range map[int]string{0: "factories.log.drewCards", 1: "factories.log.drew", engine.Spectator: "factories.log.drew"} {
		u := Update{Room: room, Seat: seat, Events: []*LogEntry{drew, round, byBot}}
		u.WordLog()
		if len(u.LogCodes) != len(u.Log) {
			t.Fatalf("seat %d: %d codes for %d lines", seat, len(u.LogCodes), len(u.Log))
		}
		if got := u.LogCodes[0].ID; got != want {
			t.Errorf("seat %d reads the draw as %q; want %q", seat, got, want)
		}
		if c := u.LogCodes[1]; c.Seat != -1 || c.ID != "factories.log.round" || c.Args[0].Value != "2" {
			t.Errorf("seat %d: the round's code is %+v", seat, c)
		}
		if c := u.LogCodes[2]; c.Seat != 1 || !c.ByBot {
			t.Errorf("seat %d: the bot's move is coded %+v", seat, c)
		}
		data, err := json.Marshal(u)
		if err != nil {
			t.Fatal(err)
		}
		if seat != 0 && strings.Contains(string(data), "Robot\"") && strings.Contains(string(data), "drewCards") {
			t.Errorf("seat %d's JSON names the drawn card:\n%s", seat, data)
		}
		if !strings.Contains(string(data), `"logCodes":[{"seat":0,"id":"`+want+`"`) {
			t.Errorf("seat %d's JSON lacks its codes:\n%s", seat, data)
		}
	}
}
