package factories

import (
	"encoding/json"
	"reflect"
	"testing"
)

// aReplicator is a physical Replicator card.
func aReplicator(t *testing.T) Card {
	t.Helper()
	for c := Card(0); c < 74; c++ {
		if c.Name() == Replicator {
			return c
		}
	}
	t.Fatal("no Replicator in the deck")
	return None
}

// TestMoveJSON pins the move shapes clients send and read: every field
// the kind uses, zero values included ("slot":0, "opponent":0), so a
// client reading a field never finds it missing; and each reads back.
func TestMoveJSON(t *testing.T) {
	rep := aReplicator(t)
	for _, tc := range []struct {
		m    Move
		json string
	}{
		{Move{Kind: Take}, `{"kind":"take","slot":0}`},
		{Move{Kind: Hire, Slot: 2, Discard: []Card{14}}, `{"kind":"hire","slot":2,"discard":[14],"opponent":0}`},
		{Move{Kind: Refresh, Row: BlueprintRow, Pay: "metal"}, `{"kind":"refresh","row":"blueprints","pay":"metal"}`},
		{Move{Kind: Build, Card: 0, Discard: []Card{3}}, `{"kind":"build","card":0,"discard":[3]}`},
		{Move{Kind: Place, Dice: []int{0}, Action: Mine}, `{"kind":"place","dice":[0],"action":"mine"}`},
		{Move{Kind: Choose, Dice: []int{1}, Value: 6}, `{"kind":"choose","dice":[1],"value":6}`},
		{Move{Kind: SetDice, Values: []int{1, 1}}, `{"kind":"setdice","values":[1,1]}`},
		{Move{Kind: Activate, Card: 12, Dice: []int{0, 2}}, `{"kind":"activate","card":12,"dice":[0,2]}`},
		{Move{Kind: Activate, Card: rep, Dice: []int{1}}, `{"kind":"activate","card":` + marshal(t, int(rep)) + `,"dice":[1],"slot":0}`},
		{Move{Kind: Activate, Card: 5, Dice: []int{0}, Discard: []Card{9}, Energy: 4}, `{"kind":"activate","card":5,"dice":[0],"discard":[9],"metal":0,"energy":4}`},
		{Move{Kind: DiscardDown, Energy: 1}, `{"kind":"discard","metal":0,"energy":1}`},
		{Move{Kind: Pass}, `{"kind":"pass"}`},
		{Move{Kind: Done}, `{"kind":"done"}`},
	} {
		got := marshal(t, tc.m)
		if got != tc.json {
			t.Errorf("%+v is %s; want %s", tc.m, got, tc.json)
		}
		var back Move
		if err := json.Unmarshal([]byte(tc.json), &back); err != nil || !reflect.DeepEqual(back, tc.m) {
			t.Errorf("%s reads back as %+v, %v", tc.json, back, err)
		}
	}
}

// A view names every seat by number, seat 0 too: the legal hire of a
// gift to seat 0 says "opponent":0, and a game ended by seat 0 "endSeat":0.
func TestViewWritesZeroes(t *testing.T) {
	v := View{EndCause: "prestige", EndSeat: 0, Legal: []Move{{Kind: Hire, Slot: 1, Discard: []Card{4}, Opponent: 0}}}
	var got struct {
		EndSeat *int `json:"endSeat"`
		Legal   []map[string]any
	}
	if err := json.Unmarshal([]byte(marshal(t, v)), &got); err != nil {
		t.Fatal(err)
	}
	if got.EndSeat == nil || *got.EndSeat != 0 {
		t.Errorf("endSeat is %v; want 0", got.EndSeat)
	}
	if o, ok := got.Legal[0]["opponent"]; !ok || o != 0.0 {
		t.Errorf("the hire's opponent is %v (%v); want 0", o, ok)
	}
}

// A field of the wrong type is refused in a player's words.
func TestUnreadableMove(t *testing.T) {
	state, err := Rules.New(2, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	for move, want := range map[string]string{
		`{"kind":"take","slot":"two"}`: `that move cannot be read: "slot" should be a whole number, not text`,
		`{"kind":"take","slot":1e300}`: `that move cannot be read: "slot" should be a whole number, not 1e300`,
		`{"kind":"build","discard":3}`: `that move cannot be read: "discard" should be a list, not a number`,
	} {
		if _, _, err := Rules.Apply(state, 0, json.RawMessage(move)); err == nil || err.Error() != want {
			t.Errorf("%s is refused with %v; want %q", move, err, want)
		}
	}
}

// A list of moves writes each as it writes alone.
func TestMovesJSON(t *testing.T) {
	ms := Moves{{Kind: Take}, {Kind: Pass}, {Kind: "nonsense", Slot: 2}, {Kind: Hire, Slot: 1, Discard: []Card{4}}}
	want := `[{"kind":"take","slot":0},{"kind":"pass"},{"kind":"nonsense","slot":2},{"kind":"hire","slot":1,"discard":[4],"opponent":0}]`
	if got := marshal(t, ms); got != want {
		t.Errorf("moves are %s; want %s", got, want)
	}
	if got := marshal(t, Moves(nil)); got != "null" {
		t.Errorf("no moves are %s", got)
	}
}
