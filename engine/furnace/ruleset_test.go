package furnace

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine"
)

// TestGameEnds: after the last round's production the game is over, Apply
// refuses everything and the status carries the result; the short game
// ends after 3 rounds.
func TestGameEnds(t *testing.T) {
	for _, rounds := range []int{Rounds, ShortRounds} {
		s := table{Round: rounds, Config: Config{Rounds: rounds}, Seats: []seatSetup{{Goods: Goods{Money: 5}}, {Goods: Goods{Money: 9}}}}.build(t)
		s, _ = mustApply(t, s, 0, Move{Kind: Done})
		s, events := mustApply(t, s, 1, Move{Kind: Done})
		if s.Phase != GameOver || events[len(events)-1].Text != "the game is over" {
			t.Fatalf("%d rounds: phase %s, events %v", rounds, s.Phase, events)
		}
		if _, _, err := Apply(s, 0, Move{Kind: Done}); err == nil || err.Error() != "the game is over" {
			t.Errorf("a move after the end: %v", err)
		}
		if c := s.Clone(); c.Play(0, Move{Kind: Done}) == nil {
			t.Errorf("Play after the end accepted a move")
		}
		st := StatusOf(s)
		want := &engine.Result{Scores: []int{5, 9}, Ranks: []int{2, 1}, Winners: []int{1}, Holdings: [][]string{{}, {}}}
		if !st.Over || st.Round != rounds || len(st.Acting) != 0 || string(mustJSON(st.Result)) != string(mustJSON(want)) {
			t.Errorf("status %+v, result %s", st, mustJSON(st.Result))
		}
		if v := ViewOf(s, 0); len(v.Scores) != 2 || v.Scores[0].Seat != 1 || v.Legal != nil {
			t.Errorf("final view scores %+v, legal %v", v.Scores, v.Legal)
		}
	}
}

// TestTieBreaks: the most money wins; ties go to the most cards, then the
// most resources (coal, iron, oil and upgrade tokens, money not); seats
// still tied share the place and the win.
func TestTieBreaks(t *testing.T) {
	// seat is a seat with the money, number of companies and goods given;
	// the companies are filled in from the deck below.
	seat := func(money, cards int, g Goods) seatSetup {
		g.Money = money
		return seatSetup{Cards: make([]string, cards), Goods: g}
	}
	for _, tc := range []struct {
		name    string
		seats   []seatSetup
		ranks   []int
		winners []int
	}{
		{"money", []seatSetup{seat(10, 0, Goods{}), seat(12, 0, Goods{}), seat(11, 3, Goods{Coal: 9})}, []int{3, 1, 2}, []int{1}},
		{"cards", []seatSetup{seat(12, 2, Goods{}), seat(12, 3, Goods{}), seat(9, 9, Goods{})}, []int{2, 1, 3}, []int{1}},
		{"resources", []seatSetup{seat(12, 2, Goods{Coal: 1, Tokens: 2}), seat(12, 2, Goods{Iron: 1, Oil: 1}), seat(12, 1, Goods{Coal: 9})}, []int{1, 2, 3}, []int{0}},
		{"shared", []seatSetup{seat(12, 2, Goods{Oil: 2}), seat(3, 0, Goods{}), seat(12, 2, Goods{Coal: 1, Iron: 1}), seat(12, 2, Goods{Coal: 1})}, []int{1, 4, 1, 3}, []int{0, 2}},
	} {
		next := 1
		for _, set := range tc.seats {
			for i := range set.Cards {
				set.Cards[i] = Card(next).ID()
				next++
			}
		}
		s := table{Players: len(tc.seats), Seats: tc.seats}.build(t)
		s.Phase = GameOver
		r := StatusOf(s).Result
		if !slices.Equal(r.Ranks, tc.ranks) || !slices.Equal(r.Winners, tc.winners) {
			t.Errorf("%s: ranks %v, winners %v; want %v, %v", tc.name, r.Ranks, r.Winners, tc.ranks, tc.winners)
		}
		// The holdings are each seat's companies, the start card left out.
		for i, set := range tc.seats {
			if !slices.Equal(r.Holdings[i], set.Cards) {
				t.Errorf("%s: seat %d holds %v, want %v", tc.name, i, r.Holdings[i], set.Cards)
			}
		}
	}
}

// TestRulesOptions: the options New takes, their defaults, and refusals.
func TestRulesOptions(t *testing.T) {
	r := Rules
	if r.Name() != "furnace" || r.Title() != "Furnace" {
		t.Errorf("%q %q", r.Name(), r.Title())
	}
	if lo, hi := r.Seats(); lo != 2 || hi != 4 {
		t.Errorf("Seats() = %d, %d", lo, hi)
	}
	var names []string
	for _, o := range r.Options() {
		names = append(names, o.Name)
		if o.DefaultValue() != o.Choices[0] || o.About == "" {
			t.Errorf("option %+v", o)
		}
	}
	if !slices.Equal(names, []string{"rounds", "capitalists", "chain", "arthur"}) {
		t.Errorf("options %v", names)
	}
	for _, tc := range []struct {
		seats int
		opts  string
		want  string // the config, or the error
	}{
		{2, ``, `{"players":2,"rounds":4,"undo":true}`},
		{3, `{"rounds":"3","chain":"on"}`, `{"players":3,"rounds":3,"chain":true,"undo":true}`},
		{4, `{"capitalists":"on"}`, `{"players":4,"rounds":4,"capitalists":true,"arthur":"alone","undo":true}`},
		{4, `{"capitalists":"on","arthur":"paired"}`, `{"players":4,"rounds":4,"capitalists":true,"arthur":"paired","undo":true}`},
		{4, `{"arthur":"paired"}`, `{"players":4,"rounds":4,"undo":true}`},
		{3, `{"rounds":"5"}`, `choose 4 or 3`},
		{3, `{"chain":"yes"}`, `choose off or on`},
		{3, `{"solo":"on"}`, `has no option`},
		{1, ``, `2 to 4 seats`},
		{5, ``, `2 to 4 seats`},
	} {
		raw, err := r.New(tc.seats, json.RawMessage(tc.opts), 1)
		if err != nil {
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New(%d, %s): %v; want %q", tc.seats, tc.opts, err, tc.want)
			}
			continue
		}
		s, err := Decode(mustJSON(raw))
		if err != nil || string(mustJSON(s.Config)) != tc.want {
			t.Errorf("New(%d, %s): config %s, %v; want %s", tc.seats, tc.opts, mustJSON(s.Config), err, tc.want)
		}
	}
}

// TestRulesJSON: the Ruleset refuses what it cannot read, with reasons.
func TestRulesJSON(t *testing.T) {
	r := Rules
	raw, err := r.New(3, nil, 4)
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.Status(raw)
	if err != nil || st.Round != 1 || len(st.Acting) != 1 || st.Over {
		t.Fatalf("status %+v, %v", st, err)
	}
	seat := st.Acting[0]
	for _, tc := range []struct{ move, want string }{
		{`{"kind":"bid"`, "not valid JSON"},
		{`{"kind":"bid","card":"oil-99","disc":1}`, `that move cannot be read: no card is called "oil-99"`},
		{`{"kind":"bid","card":3}`, "that move cannot be read"},
		{`{"kind":"produce","card":"oil-01","times":[1,2,3]}`, "at most 2 counts"},
		{`{"kind":"bid","card":"oil-01","disc":9}`, ""},
	} {
		if _, _, err := r.Apply(raw, seat, json.RawMessage(tc.move)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Apply(%s): %v; want %q", tc.move, err, tc.want)
		}
	}
	var s State
	_ = json.Unmarshal(mustJSON(raw), &s)
	// Format 1, before moves could be taken back: refused, both versions
	// named. Rooms rebuild their games from the seed and the moves, so no
	// stored state is ever read back; the Ruleset keeps its states
	// decoded, and only Decode reads one.
	s.Format = 1
	if _, err := Decode(mustJSON(s)); err == nil || !strings.Contains(err.Error(), "format 1; this server reads 2") {
		t.Errorf("a state of another format: %v", err)
	}
	if _, err := r.View([]byte(`{`), 0); err == nil {
		t.Errorf("View read a broken state")
	}
	view, err := r.View(raw, seat)
	if err != nil {
		t.Fatal(err)
	}
	var v View
	if err := json.Unmarshal(view, &v); err != nil || v.Seat != seat || len(v.Legal) == 0 || v.DeckSize != 32-7 {
		t.Errorf("view %s: %v", view, err)
	}
}

// TestMoveJSON pins the move shapes clients send and read: every field
// the kind uses, zero values included (a bid's "neutral":false, a
// place's "at":0), so a client reading a field never finds it missing.
func TestMoveJSON(t *testing.T) {
	for _, tc := range []struct {
		m    Move
		json string
	}{
		{Move{Kind: Bid, Card: card(t, "oil-03"), Disc: 3}, `{"kind":"bid","card":"oil-03","disc":3,"neutral":false,"extra":""}`},
		{Move{Kind: Bid, Card: card(t, "oil-03"), Disc: 2, Neutral: true}, `{"kind":"bid","card":"oil-03","disc":2,"neutral":true,"extra":""}`},
		{Move{Kind: Bid, Card: card(t, "oil-03"), Disc: 4, Extra: card(t, "mine-02")}, `{"kind":"bid","card":"oil-03","disc":4,"neutral":false,"extra":"mine-02"}`},
		{Move{Kind: Compensate}, `{"kind":"compensate","times":[]}`},
		{Move{Kind: Compensate, Times: Times{2}}, `{"kind":"compensate","times":[2]}`},
		{Move{Kind: Place, Card: card(t, "mine-04"), At: 1}, `{"kind":"place","card":"mine-04","at":1}`},
		{Move{Kind: Place, Card: card(t, "mine-04")}, `{"kind":"place","card":"mine-04","at":0}`},
		{Move{Kind: Produce, Card: card(t, "oil-02"), Times: Times{2, 1}}, `{"kind":"produce","card":"oil-02","times":[2,1],"again":false}`},
		{Move{Kind: Produce, Card: card(t, "oil-02"), Times: Times{0, 3}}, `{"kind":"produce","card":"oil-02","times":[0,3],"again":false}`},
		{Move{Kind: Produce, Card: card(t, "mine-06"), Times: Times{1}, Again: true}, `{"kind":"produce","card":"mine-06","times":[1],"again":true}`},
		{Move{Kind: Produce, Card: card(t, "start-2")}, `{"kind":"produce","card":"start-2","times":[],"again":false}`},
		{Move{Kind: Upgrade, Card: card(t, "mine-04")}, `{"kind":"upgrade","card":"mine-04"}`},
		{Move{Kind: Done}, `{"kind":"done"}`},
	} {
		if got := string(mustJSON(tc.m)); got != tc.json {
			t.Errorf("%+v is %s; want %s", tc.m, got, tc.json)
		}
		var back Move
		if err := json.Unmarshal([]byte(tc.json), &back); err != nil || back != tc.m {
			t.Errorf("%s reads back as %+v, %v", tc.json, back, err)
		}
	}
}

// TestViewSharesNothing: changing a view changes neither the state nor
// another view.
func TestViewSharesNothing(t *testing.T) {
	s, _ := New(Config{Players: 3, Chain: true}, 9)
	for s.Phase == AuctionPhase {
		s, _, _ = Apply(s, s.Turn, Legal(s, s.Turn)[0])
	}
	before := string(mustJSON(s))
	v := ViewOf(s, 0)
	for i := range v.Players {
		v.Players[i].Goods.Coal = 99
		for j := range v.Players[i].Cards {
			v.Players[i].Cards[j].Card = 1
		}
		for j := range v.Players[i].New {
			v.Players[i].New[j] = 1
		}
	}
	for i := range v.Market {
		v.Market[i].Card = 1
		for j := range v.Market[i].Discs {
			v.Market[i].Discs[j].Value = 9
		}
	}
	for i := range v.Removed {
		v.Removed[i] = 1
	}
	if string(mustJSON(s)) != before {
		t.Errorf("changing a view changed the state")
	}
	if w := ViewOf(s, engine.Spectator); w.Seat != engine.Spectator || w.Legal != nil || w.You() != nil {
		t.Errorf("spectator view: seat %d, legal %v", w.Seat, w.Legal)
	}
}

// TestDescribe pins how menus word moves, from the seat's view.
func TestDescribe(t *testing.T) {
	s := table{Phase: ResolvePhase, Config: Config{Capitalists: true}, Market: []string{"oil-09"},
		Seats: []seatSetup{{Capitalist: Timur, Start: "start-1", Cards: []string{"mine-04"}, Upgraded: []string{"oil-02"}, Goods: Goods{Coal: 2, Iron: 1}}}}.build(t)
	v := ViewOf(s, 0)
	for _, tc := range []struct {
		m    Move
		want string
	}{
		{bid(t, "oil-03", 3), "Place your 3 on oil-03"},
		{Move{Kind: Bid, Card: card(t, "oil-03"), Disc: 2, Neutral: true}, "Place the neutral 2 on oil-03"},
		{Move{Kind: Bid, Card: card(t, "oil-03"), Disc: 4, Extra: card(t, "mine-02")}, "Place your 4 on oil-03 and the neutral 2 on mine-02"},
		{Move{Kind: Compensate, Times: Times{2}}, "Turn 2 oil into 6 iron (compensation for oil-09)"},
		{Move{Kind: Compensate}, "Take no compensation for oil-09"},
		{Move{Kind: Place, Card: card(t, "mine-04"), At: 1}, "Put mine-04 at position 2 of your chain"},
		{produce(t, "oil-02", 1, 0), "Resolve oil-02: 2 coal into 1 oil; skip 1 coal + 1 iron → 4 money"},
		{produce(t, "mine-04"), "Resolve mine-04: +2 coal"},
		{produce(t, "start-1", 1), "Resolve start-1: +1 upgrade token; 2 coal into 2 money"},
		{Move{Kind: Produce, Card: card(t, "mine-04"), Again: true}, "Pay 2 coal to resolve again mine-04: +2 coal"},
		{upgrade(t, "mine-04"), "Upgrade mine-04 for 1 coal and 1 iron"},
		{Move{Kind: Done}, "Done with production"},
	} {
		if got := tc.m.Describe(v); got != tc.want {
			t.Errorf("%s: %q, want %q", mustJSON(tc.m), got, tc.want)
		}
	}
}

// A list of moves writes each as it writes alone.
func TestMovesJSON(t *testing.T) {
	ms := Moves{{Kind: Done}, {Kind: Place, Card: card(t, "mine-04")}, {Kind: Compensate, Times: Times{1}}}
	want := `[{"kind":"done"},{"kind":"place","card":"mine-04","at":0},{"kind":"compensate","times":[1]}]`
	if got := string(mustJSON(ms)); got != want {
		t.Errorf("moves are %s; want %s", got, want)
	}
}
