package furnace

import (
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine"
)

// rolling returns a generator whose next die shows want.
func rolling(t testing.TB, want int) engine.RNG {
	t.Helper()
	for seed := range uint64(1000) {
		r := engine.NewRNG(seed)
		if next := r; next.Die() == want {
			return r
		}
	}
	t.Fatalf("no seed rolls a %d", want)
	return engine.RNG{}
}

var sixCards = []string{"oil-01", "oil-02", "oil-03", "oil-04", "oil-05", "oil-06"}

// agentTable is a 2-player auction of six cards in which seat 0's next
// placement is the second of a pair, so the Agent places after it, with
// the die showing roll.
func agentTable(t testing.TB, roll int) State {
	t.Helper()
	s := table{Phase: AuctionPhase, Market: sixCards}.build(t)
	s.Placed = 1
	s.RNG = rolling(t, roll)
	return s
}

// disc puts a placed disc on the market card at position pos (1-6).
func disc(s *State, pos int, d Disc) {
	s.Market[pos-1].Discs = append(s.Market[pos-1].Discs, d)
	switch {
	case d.Seat == AgentSeat:
		s.Agent.Discs &^= 1 << d.Value
	case !d.Neutral:
		s.Players[d.Seat].Discs &^= 1 << d.Value
	}
}

// TestAgentRulebookExample plays the rulebook's example: the Agent holds
// its 2 and 4; the die shows 2, but card 2 has an Agent disc; card 3 has
// a 2 and a 4 of the players; card 4 has a 3, so the Agent puts its 2
// there. Had card 4 had a 2 already, it would have put its 4.
func TestAgentRulebookExample(t *testing.T) {
	for _, withTwo := range []bool{false, true} {
		s := agentTable(t, 2)
		disc(&s, 2, Disc{Seat: AgentSeat, Value: 1})
		disc(&s, 6, Disc{Seat: AgentSeat, Value: 3})
		if withTwo {
			disc(&s, 3, Disc{Seat: 0, Value: 4})
			disc(&s, 3, Disc{Seat: 1, Value: 2})
			disc(&s, 4, Disc{Seat: 1, Value: 3})
			disc(&s, 4, Disc{Seat: 0, Value: 2})
		} else {
			disc(&s, 3, Disc{Seat: 0, Value: 2})
			disc(&s, 3, Disc{Seat: 1, Value: 4})
			disc(&s, 4, Disc{Seat: 1, Value: 3})
		}
		next, events := mustApply(t, s, 0, bid(t, "oil-05", 1))
		want := Disc{Seat: AgentSeat, Value: 2}
		text := "the Agent rolled 2 and placed a 2 on oil-04 (card 4)"
		if withTwo {
			want.Value = 4
			text = "the Agent rolled 2 and placed a 4 on oil-04 (card 4)"
		}
		lot := next.Market[3].Discs
		if lot[len(lot)-1] != want || next.Agent.Roll != 2 || next.Agent.Discs.Has(want.Value) {
			t.Errorf("card 4 has %+v; agent %+v", lot, next.Agent)
		}
		if events[1].Seat != -1 || events[1].Text != text {
			t.Errorf("events %v", events)
		}
		if next.Turn != 1 || next.Placed != 2 {
			t.Errorf("turn %d, placed %d", next.Turn, next.Placed)
		}
	}
}

// TestAgentWrapsAround: from the sixth card the Agent tries the first.
func TestAgentWrapsAround(t *testing.T) {
	s := agentTable(t, 6)
	disc(&s, 6, Disc{Seat: AgentSeat, Value: 1})
	next, _ := mustApply(t, s, 0, bid(t, "oil-02", 4))
	if got := next.Market[0].Discs; len(got) != 1 || got[0] != (Disc{Seat: AgentSeat, Value: 2}) {
		t.Errorf("card 1 has %+v", got)
	}
}

// TestAgentStops: with no legal place for any disc anywhere, the Agent
// places no more discs this auction (ruling (a)), and the players go on.
// With six cards that takes Arthur: the Agent holds only its 2, its other
// discs are on three cards, and the two players' 2s and the neutral 2 are
// on the other three.
func TestAgentStops(t *testing.T) {
	s := table{Phase: AuctionPhase, Config: Config{Capitalists: true}, Seats: []seatSetup{{Capitalist: Arthur}, {}}, Market: sixCards}.build(t)
	s.Placed = 1
	s.RNG = rolling(t, 1)
	for pos, v := range map[int]int{1: 1, 2: 3, 3: 4} {
		disc(&s, pos, Disc{Seat: AgentSeat, Value: v})
	}
	disc(&s, 4, Disc{Seat: 0, Value: 2})
	disc(&s, 5, Disc{Seat: 1, Value: 2})
	disc(&s, 6, Disc{Seat: 0, Value: 2, Neutral: true})
	s.Players[0].Neutral = false
	next, events := mustApply(t, s, 0, bid(t, "oil-01", 3))
	if !next.Agent.Out || next.Agent.Discs != 1<<2 || next.Agent.Roll != 1 {
		t.Errorf("agent %+v", next.Agent)
	}
	if events[1].Text != "the Agent rolled 1 but has no legal place for a disc: it places no more this auction" {
		t.Errorf("events %v", events)
	}
	// Two more placements: the Agent does not roll again.
	rng := next.RNG
	next, _ = mustApply(t, next, 1, bid(t, "oil-02", 1))
	next, _ = mustApply(t, next, 0, bid(t, "oil-02", 4))
	if next.RNG != rng || next.Placed != 4 {
		t.Errorf("the Agent rolled after it stopped")
	}
}

// TestAgentIsThird: in a real 2-player auction the Agent places after every
// second placement of the players: first player, other player, Agent.
func TestAgentIsThird(t *testing.T) {
	for seed := range uint64(5) {
		s, err := New(Config{Players: 2}, seed)
		if err != nil {
			t.Fatal(err)
		}
		var order []int
		first := s.First
		for s.Phase == AuctionPhase {
			next, events := mustApply(t, s, s.Turn, Legal(s, s.Turn)[0])
			for _, e := range events {
				if e.Kind == "bid" || (e.Kind == "agent" && strings.Contains(e.Text, "placed")) {
					order = append(order, e.Seat)
				}
			}
			s = next
		}
		want := []int{first, 1 - first, -1}
		for i, seat := range order {
			if i < 12 && seat != want[i%3] {
				t.Fatalf("seed %d: placements by %v; want the pattern %v", seed, order, want)
			}
		}
		if len(order) < 9 {
			t.Errorf("seed %d: only %d placements", seed, len(order))
		}
	}
}

// TestAgentWinsAreDiscarded: a card the Agent wins goes back to the box
// after the players' discs on it are compensated; the Agent gets nothing.
// Monica tying the Agent loses (ruling (d)).
func TestAgentWinsAreDiscarded(t *testing.T) {
	s := table{Phase: AuctionPhase, Config: Config{Capitalists: true}, Seats: []seatSetup{{Capitalist: Monica}, {}},
		Market: []string{"mine-04", "mine-09"}}.build(t)
	disc(&s, 1, Disc{Seat: AgentSeat, Value: 4})
	disc(&s, 1, Disc{Seat: 1, Value: 2})
	disc(&s, 2, Disc{Seat: AgentSeat, Value: 3})
	s.Agent.Out = true
	s.Players[1].Bidder = Bidder{Out: true}
	s.Players[0].Discs = 1 << 3
	s, events := mustApply(t, s, 0, bid(t, "mine-09", 3)) // ties the Agent's 3
	if s.Phase != ProductionPhase || len(s.Players[0].Cards) != 1 || len(s.Players[1].Cards) != 1 {
		t.Fatalf("phase %s, cards %v / %v", s.Phase, s.Players[0].Cards, s.Players[1].Cards)
	}
	if !slices.Contains(s.Removed, card(t, "mine-04")) || !slices.Contains(s.Removed, card(t, "mine-09")) {
		t.Errorf("removed %v", s.Removed)
	}
	if s.Players[1].Goods.Coal != 4 || s.Players[0].Goods.Coal != 6 {
		t.Errorf("compensation: %d / %d coal", s.Players[0].Goods.Coal, s.Players[1].Goods.Coal)
	}
	var kinds []string
	for _, e := range events {
		kinds = append(kinds, e.Kind+": "+e.Text)
	}
	want := []string{
		"bid: placed a 3 on mine-09",
		"agent: the Agent won mine-04 with a 4: it is discarded",
		"compensation: received 4 coal in compensation for mine-04 (disc 2)",
		"agent: the Agent won mine-09 with a 3: it is discarded",
		"compensation: received 6 coal in compensation for mine-09 (disc 3)",
		"production: production begins",
	}
	if !slices.Equal(kinds, want) {
		t.Errorf("events\n%v\nwant\n%v", strings.Join(kinds, "\n"), strings.Join(want, "\n"))
	}
}
