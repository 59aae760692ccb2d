package factories

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine"
)

// midGame plays seed's random game for n moves and returns the state.
func midGame(t testing.TB, cfg Config, seed uint64, n int) State {
	t.Helper()
	s, err := New(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	r := newRandomPlayer(seed)
	for range n {
		seat, m, ok := r.next(s)
		if !ok {
			break
		}
		s, _ = mustApply(t, s, seat, m)
	}
	return s
}

func TestViewHidesHandsAndDeckOrder(t *testing.T) {
	s := midGame(t, Config{Players: 3}, 11, 40)
	if len(s.Players[1].Hand) < 2 || len(s.Deck) < 4 {
		t.Fatalf("the sample game is too small: hand %d deck %d", len(s.Players[1].Hand), len(s.Deck))
	}
	// Another state that differs only in what seat 0 may not know: seat 1's
	// hand holds other cards, and the deck is in another order.
	other := s.Clone()
	h := other.Players[1].Hand
	h[0], other.Deck[0] = other.Deck[0], h[0]
	h[1], other.Deck[1] = other.Deck[1], h[1]
	slices.Reverse(other.Deck)
	checkInvariants(t, other)
	for _, seat := range []int{0, 2, engine.Spectator} {
		if a, b := marshal(t, ViewOf(s, seat)), marshal(t, ViewOf(other, seat)); a != b {
			t.Errorf("seat %d's view shows seat 2's hand or the deck order", seat)
		}
	}
	if a, b := marshal(t, ViewOf(s, 1)), marshal(t, ViewOf(other, 1)); a == b {
		t.Errorf("seat 1's view does not show its own hand")
	}
	v := ViewOf(s, 0)
	if !slices.Equal(v.Hand, s.Players[0].Hand) {
		t.Errorf("own hand %v; want %v", v.Hand, s.Players[0].Hand)
	}
	for i, p := range v.Players {
		if p.HandSize != len(s.Players[i].Hand) || p.Seat != i {
			t.Errorf("seat %d shown as %+v", i, p)
		}
	}
	if v.DeckSize != len(s.Deck) || v.DiscardSize != len(s.Discard) || v.ContractorDeck != len(s.ContractorDeck) {
		t.Errorf("deck sizes %d %d %d", v.DeckSize, v.DiscardSize, v.ContractorDeck)
	}
	if v.Seat != 0 || v.Seats != 3 || v.Round != s.Round || v.Phase != s.Phase || v.Market != s.Market || v.Format != Format {
		t.Errorf("view header %+v", v)
	}
	if v.You().Seat != 0 {
		t.Errorf("You() is seat %d", v.You().Seat)
	}
}

func TestSpectatorView(t *testing.T) {
	s := midGame(t, Config{Players: 2}, 3, 25)
	for _, seat := range []int{engine.Spectator, 2, 99, -7} {
		v := ViewOf(s, seat)
		if v.Seat != engine.Spectator || v.Hand != nil || v.Legal != nil {
			t.Errorf("ViewOf(seat %d): seat %d, hand %v, %d legal moves; want the public view", seat, v.Seat, v.Hand, len(v.Legal))
		}
		if v.You().Seat != engine.Spectator {
			t.Errorf("a spectator's You() is seat %d", v.You().Seat)
		}
		raw := marshal(t, v)
		if strings.Contains(raw, `"hand":`) || strings.Contains(raw, `"legal":`) {
			t.Errorf("spectator JSON has a hand or legal moves: %s", raw)
		}
	}
}

func TestViewLegalMatchesLegal(t *testing.T) {
	for seed := range uint64(5) {
		s := midGame(t, Config{Players: 3}, seed, 30+int(seed)*7)
		for seat := range s.Players {
			if a, b := marshal(t, ViewOf(s, seat).Legal), marshal(t, Legal(s, seat)); a != b {
				t.Errorf("seed %d seat %d: the view's legal moves differ from Legal", seed, seat)
			}
		}
	}
}

func TestViewDoesNotShareTheState(t *testing.T) {
	for _, players := range []int{1, 2, 4} {
		s := midGame(t, Config{Players: players}, 5, 60)
		before := marshal(t, s)
		for seat := engine.Spectator; seat < players; seat++ {
			v := ViewOf(s, seat)
			for i := range v.Players {
				for j := range v.Players[i].Compound {
					b := &v.Players[i].Compound[j]
					b.Card = 0
					for k := range b.Dice {
						b.Dice[k] = 9
					}
					b.Dice = append(b.Dice, 9)
				}
				for j := range v.Players[i].Dice {
					v.Players[i].Dice[j].Value = 9
				}
				hq := &v.Players[i].HQ
				for _, action := range []*[]int{&hq.Research, &hq.Generate, &hq.Mine} {
					for k := range *action {
						(*action)[k] = 9
					}
					*action = append(*action, 9)
				}
			}
			for i := range v.Hand {
				v.Hand[i] = 0
			}
			for i := range v.Legal {
				v.Legal[i].Dice = append(v.Legal[i].Dice, 9)
				v.Legal[i].Discard = append(v.Legal[i].Discard, 0)
			}
			if v.Machine != nil {
				v.Machine.Goods = 99
				for i := range v.Machine.Compound {
					v.Machine.Compound[i] = 0
				}
			}
			if marshal(t, s) != before {
				t.Fatalf("%d players: changing seat %d's view changed the state", players, seat)
			}
		}
	}
}

// TestCloneSharesNothing appends to every slice of a clone in turn: each
// must keep its own elements and gain just the one appended, so no slice
// carved from a shared array runs into the next, and the original stays
// as it was.
func TestCloneSharesNothing(t *testing.T) {
	for _, players := range []int{1, 3, 5} {
		s := midGame(t, Config{Players: players}, 7, 150)
		before := marshal(t, s)
		c := s.Clone()
		if marshal(t, c) != before {
			t.Fatalf("%d players: the clone differs from the state", players)
		}
		cards := []*[]Card{&c.Deck, &c.Discard}
		var ints []*[]int
		var dice []*[]Die
		for i := range c.Players {
			p := &c.Players[i]
			cards = append(cards, &p.Hand)
			dice = append(dice, &p.Dice)
			ints = append(ints, &p.HQ.Research, &p.HQ.Generate, &p.HQ.Mine)
			for j := range p.Compound {
				ints = append(ints, &p.Compound[j].Dice)
			}
		}
		if c.Machine != nil {
			cards = append(cards, &c.Machine.Compound)
		}
		var wantCards [][]Card
		var wantInts [][]int
		var wantDice [][]Die
		for _, v := range cards {
			wantCards = append(wantCards, append(slices.Clone(*v), 99))
		}
		for _, v := range ints {
			wantInts = append(wantInts, append(slices.Clone(*v), 99))
		}
		for _, v := range dice {
			wantDice = append(wantDice, append(slices.Clone(*v), Die{Value: 99}))
		}
		for _, v := range cards {
			*v = append(*v, 99)
		}
		for _, v := range ints {
			*v = append(*v, 99)
		}
		for _, v := range dice {
			*v = append(*v, Die{Value: 99})
		}
		for i, v := range cards {
			if !slices.Equal(*v, wantCards[i]) {
				t.Fatalf("%d players: card slice %d is %v, want %v", players, i, *v, wantCards[i])
			}
		}
		for i, v := range ints {
			if !slices.Equal(*v, wantInts[i]) {
				t.Fatalf("%d players: int slice %d is %v, want %v", players, i, *v, wantInts[i])
			}
		}
		for i, v := range dice {
			if !slices.Equal(*v, wantDice[i]) {
				t.Fatalf("%d players: dice %d are %v, want %v", players, i, *v, wantDice[i])
			}
		}
		c.Players[0].Compound = append(c.Players[0].Compound, Building{Card: 1})
		if marshal(t, s) != before {
			t.Fatalf("%d players: changing the clone changed the state", players)
		}
	}
}

func TestScoresOnlyWhenOver(t *testing.T) {
	s := midGame(t, Config{Players: 2}, 8, 10)
	if v := ViewOf(s, 0); v.Scores != nil {
		t.Errorf("scores during the game: %+v", v.Scores)
	}
	over, _ := playRandom(t, Config{Players: 2}, 8, nil)
	if v := ViewOf(over, engine.Spectator); len(v.Scores) != 2 {
		t.Errorf("scores after the game: %+v", v.Scores)
	}
}

func TestDescribe(t *testing.T) {
	described := map[MoveKind]bool{}
	for seed := range uint64(6) {
		cfg := Config{Players: 1 + int(seed)%MaxPlayers}
		playRandom(t, cfg, seed, func(before, _ State, seat int, _ Move) {
			v := ViewOf(before, seat)
			for _, m := range v.Legal {
				d := m.Describe(v)
				described[m.Kind] = true
				if d == "" || strings.Contains(d, "unknown") || strings.Contains(d, "empty slot") {
					t.Fatalf("%+v described as %q", m, d)
				}
			}
		})
	}
	for _, k := range []MoveKind{Take, Hire, Refresh, Build, Place, Activate, Done} {
		if !described[k] {
			t.Errorf("no %s move was described in the sample games", k)
		}
	}
	v := View{Seats: 2, Players: []PlayerView{{Dice: []Die{{Value: 3}, {Value: 5}, {Value: 2}},
		HQ: Headquarters{Generate: []int{3}, Mine: []int{6}, Research: []int{2}}}}}
	v.Market.Blueprints = [marketSize]Card{None, None, None, None}
	v.Market.Contractors = [marketSize]Contractor{hireable(Miner), None, None, None}
	for _, tc := range []struct {
		m    Move
		want string
	}{
		{Move{Kind: Pass}, "Pass (nothing to take or hire)"},
		{Move{Kind: Refresh, Pay: "metal", Row: BlueprintRow}, "Pay 1 metal to refresh the blueprints"},
		{Move{Kind: Place, Dice: []int{0}, Action: Mine}, "3 on mine: 1 metal"},
		{Move{Kind: Place, Dice: []int{0}, Action: Generate}, "3 on generate: 4 energy (+1 matching)"},
		{Move{Kind: Place, Dice: []int{1}, Action: Mine}, "5 on mine: 1 metal"},
		{Move{Kind: Place, Dice: []int{2}, Action: Research}, "2 on research: draw 2 (+1 matching)"},
		{Move{Kind: SetDice, Values: []int{6, 6}}, "Set Foreman dice to [6 6]"},
		{Move{Kind: Choose, Value: 4}, "Set Specialist die to 4"},
		{Move{Kind: DiscardDown, Metal: 2}, "Discard 2 metal"},
		{Move{Kind: DiscardDown, Energy: 1}, "Discard 1 energy"},
		{Move{Kind: DiscardDown, Discard: []Card{one(Dojo)}}, "Discard Dojo"},
		{Move{Kind: Take, Slot: 2}, "Take an empty slot"},
		{Move{Kind: Build, Card: one(Obelisk), Discard: []Card{one(Robot)}}, "Build Obelisk, discarding Robot"},
		{Move{Kind: Done}, "Done with the work phase"},
	} {
		if got := tc.m.Describe(v); got != tc.want {
			t.Errorf("%+v described as %q; want %q", tc.m, got, tc.want)
		}
	}
	// Screens name the people: the gift goes to bob, not to seat 2.
	hire := Move{Kind: Hire, Slot: 0, Discard: []Card{one(Robot)}, Opponent: 1}
	if got := hire.DescribeFor(v, func(seat int) string { return []string{"alice", "bob"}[seat] }); got != "Hire Miner, discarding Robot (gift to bob)" {
		t.Errorf("a gift named: %q", got)
	}
	if got := hire.Describe(v); !strings.HasSuffix(got, "(gift to seat 2)") {
		t.Errorf("a gift by number: %q", got)
	}
}

func TestJSONRoundTrips(t *testing.T) {
	for players := 1; players <= MaxPlayers; players++ {
		for _, n := range []int{0, 15, 70, 200} {
			s := midGame(t, Config{Players: players}, uint64(players*100+n), n)
			raw := marshal(t, s)
			back, err := Decode([]byte(raw))
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if got := marshal(t, back); got != raw {
				t.Errorf("%d players after %d moves: the state changed through JSON", players, n)
			}
			for seat := -1; seat < players; seat++ {
				v := ViewOf(s, seat)
				vr := marshal(t, v)
				var vb View
				if err := json.Unmarshal([]byte(vr), &vb); err != nil {
					t.Fatal(err)
				}
				if got := marshal(t, vb); got != vr {
					t.Errorf("the view for seat %d changed through JSON", seat)
				}
				for _, m := range v.Legal {
					mr := marshal(t, m)
					var mb Move
					if err := json.Unmarshal([]byte(mr), &mb); err != nil {
						t.Fatal(err)
					}
					if got := marshal(t, mb); got != mr {
						t.Errorf("move %s changed through JSON: %s", mr, got)
					}
					// A decoded move does the same as the original.
					a, ea, errA := Apply(s, seat, m)
					b, eb, errB := Apply(back, seat, mb)
					if errA != nil || errB != nil || marshal(t, a) != marshal(t, b) || marshal(t, ea) != marshal(t, eb) {
						t.Fatalf("move %s applies differently after JSON: %v %v", mr, errA, errB)
					}
				}
			}
		}
	}
}

func TestMoveJSONShape(t *testing.T) {
	got := marshal(t, Move{Kind: Activate, Card: 12, Dice: []int{0, 2}})
	if want := `{"kind":"activate","card":12,"dice":[0,2]}`; got != want {
		t.Errorf("move JSON %s; want %s", got, want)
	}
	var m Move
	if err := json.Unmarshal([]byte(`{"kind":"hire","slot":2,"discard":[5],"opponent":1}`), &m); err != nil {
		t.Fatal(err)
	}
	if m.Kind != Hire || m.Slot != 2 || !slices.Equal(m.Discard, []Card{5}) || m.Opponent != 1 {
		t.Errorf("decoded %+v", m)
	}
}

func TestDecodeRefusals(t *testing.T) {
	s, _ := New(Config{Players: 2}, 1)
	// Format 1, before moves could be taken back, and one from the future:
	// refused with both versions named. Rooms rebuild their games from the
	// seed and the moves, so no stored state is ever read back.
	for _, f := range []int{1, Format + 1} {
		s.Format = f
		want := fmt.Sprintf("format %d; this server reads %d", f, Format)
		if _, err := Decode([]byte(marshal(t, s))); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Decode of format %d: %v; want %q", f, err, want)
		}
	}
	for _, raw := range []string{`{}`, `{"format":0}`, `not json`, `[]`, ``} {
		if _, err := Decode([]byte(raw)); err == nil {
			t.Errorf("Decode(%q) accepted", raw)
		}
	}
}

func TestRulesAdapter(t *testing.T) {
	var r engine.Ruleset = Rules
	if r.Name() != "factories" {
		t.Errorf("name %q", r.Name())
	}
	raw, err := r.New(1, json.RawMessage(`{"difficulty":"insane"}`), 42)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Decode(mustJSON(raw))
	if err != nil || s.Config.Difficulty != "insane" || len(s.Machine.Compound) != 5 {
		t.Fatalf("solo from the adapter: %+v, %v", s.Config, err)
	}
	if _, err := r.New(2, json.RawMessage(`{"difficulty":`), 1); err == nil {
		t.Errorf("bad options accepted")
	}
	if _, err := r.New(9, nil, 1); err == nil {
		t.Errorf("9 seats accepted")
	}
	raw, err = r.New(3, nil, 42)
	if err != nil {
		t.Fatal(err)
	}
	direct, _ := New(Config{Players: 3, Undo: true}, 42) // rooms let seats take moves back
	if marshal(t, raw) != marshal(t, direct) {
		t.Errorf("the adapter's New differs from New")
	}
	st, err := r.Status(raw)
	if err != nil || st.Round != 1 || st.Over || !slices.Equal(st.Acting, []int{direct.Turn}) {
		t.Errorf("status %+v, %v", st, err)
	}
	// Apply through JSON matches Apply.
	m := Legal(direct, direct.Turn)[0]
	next, events, err := r.Apply(raw, direct.Turn, json.RawMessage(marshal(t, m)))
	if err != nil {
		t.Fatal(err)
	}
	want, wantEvents, _ := Apply(direct, direct.Turn, m)
	if marshal(t, next) != marshal(t, want) || marshal(t, events) != marshal(t, wantEvents) {
		t.Errorf("the adapter's Apply differs from Apply")
	}
	if _, _, err := r.Apply(raw, direct.Turn, json.RawMessage(`{"kind":`)); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("bad move JSON: %v", err)
	}
	if _, _, err := r.Apply(raw, (direct.Turn+1)%3, json.RawMessage(marshal(t, m))); err == nil {
		t.Errorf("a move out of turn was accepted")
	}
	if _, _, err := r.Apply(json.RawMessage(`{"format":7}`), 0, json.RawMessage(`{"kind":"pass"}`)); err == nil {
		t.Errorf("a state of another format was accepted")
	}
	view, err := r.View(raw, 1)
	if err != nil || string(view) != marshal(t, ViewOf(direct, 1)) {
		t.Errorf("the adapter's View differs from ViewOf: %v", err)
	}
	if _, err := r.View(json.RawMessage(`x`), 1); err == nil {
		t.Errorf("View of garbage accepted")
	}
	if _, err := r.Status(json.RawMessage(`x`)); err == nil {
		t.Errorf("Status of garbage accepted")
	}
}
