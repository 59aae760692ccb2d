package server

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/factories"
)

// The game screens over real SSH never draw another player's hand: not a
// spectator's `watch` screen, and not a seated player's `join` screen.
// TestPlayGameOverSSH proves the same of the JSON lines of `play` and
// `play --watch`; this covers what the terminal screens make of them.
//
// A card's name may rightly be on a screen once it has been public (in the
// marketplace, a compound or the public log) or, for a seat, once it has
// been in that seat's own hand. So while the game runs the test notes how
// much each screen has drawn and how many moves were stored by then; after
// it, the game is replayed from the server's stored log, and each stretch
// of screen is searched for the names that were, up to then, in the other
// hands and never once public.
func TestScreensShowNoOtherHand(t *testing.T) {
	srv := startServer(t)
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	bob := dialKey(t, srv.addr, "bob", newKey(t))
	carol := dialKey(t, srv.addr, "carol", newKey(t))
	code := strings.TrimSpace(run(t, alice, "new --players 2 --seed 11", "").stdout)

	_, watched := ptySession(t, carol, "watch "+code, 140, 45)
	watched.waitFor(t, code)
	a := startPlay(t, alice, "play "+code)
	aliceSeat := (<-a.lines).Seat
	bobSeat := 1 - aliceSeat
	// Alice's own game screen shares her seat with her play session.
	_, seated := ptySession(t, alice, "join "+code, 140, 45)
	seated.waitFor(t, code)

	screens := []*screen{watched, seated}
	var marks []screenMark
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			m := screenMark{drawn: make([]int, len(screens))}
			for i, s := range screens {
				m.drawn[i] = s.drawn()
			}
			// Read after the screens: whatever they drew, the store had.
			_, moves, err := srv.store.Load(t.Context(), code, 0)
			if err != nil {
				t.Error(err)
				return
			}
			m.version = len(moves)
			marks = append(marks, m)
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()

	b := startPlay(t, bob, "play "+code)
	var wg sync.WaitGroup
	for i, s := range []*stream{a, b} {
		wg.Go(func() { playToEnd(t, fmt.Sprint("player ", i+1), s, uint64(i+1), func(int, int, []factories.Card) {}) })
	}
	wg.Wait()
	if !t.Failed() {
		watched.waitFor(t, "GAME OVER")
		seated.waitFor(t, "GAME OVER")
	}
	close(stop)
	<-stopped
	if t.Failed() {
		return
	}

	seen := replayNames(t, srv, code)
	for i, tt := range []struct {
		who string
		// hidden are the hands the screen must never show, legit the seats
		// whose sight it shows, and own the hands it must show.
		hidden, legit, own []int
	}{
		{"carol's watch screen", []int{aliceSeat, bobSeat}, []int{engine.Spectator}, nil},
		{"alice's join screen", []int{bobSeat}, []int{engine.Spectator, aliceSeat}, []int{aliceSeat}},
	} {
		checked, shown, from := 0, false, 0
		for _, m := range marks {
			// Overlap the stretches so a name drawn across a mark is found.
			text := screens[i].stretch(max(0, from-256), m.drawn[i])
			from = m.drawn[i]
			for _, name := range seen.secret(m.version, tt.hidden, tt.legit) {
				checked++
				if at := strings.Index(text, name); at >= 0 {
					t.Errorf("%s shows %s by move %d, when only another player had held it: …%s…",
						tt.who, name, m.version, text[max(0, at-200):min(len(text), at+200)])
				}
			}
			// A seat's own hand, unseen by anyone else, is on its screen.
			for _, name := range seen.secret(m.version, tt.own, []int{engine.Spectator}) {
				shown = shown || strings.Contains(text, name)
			}
		}
		if checked == 0 {
			t.Errorf("%s: no card was ever held privately by the other hands; nothing was checked", tt.who)
		}
		if tt.own != nil && !shown {
			t.Errorf("%s never showed a card of alice's own hand: the search cannot see hands", tt.who)
		}
		t.Logf("%s: %d bytes drawn, %d marks, %d name checks", tt.who, screens[i].drawn(), len(marks), checked)
	}
}

// screenMark is how much each screen had drawn when the store held version
// moves.
type screenMark struct {
	drawn   []int
	version int
}

// drawn is how many bytes the screen has received.
func (s *screen) drawn() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Len()
}

// stretch returns the bytes from..to received, without escape sequences.
func (s *screen) stretch(from, to int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return ansi.Strip(string(s.buf.Bytes()[from:to]))
}

// cardNames records, for a game replayed move by move, the version at which
// each seat could first read each card name (in its view or its wording of
// the log) and first held a card of that name.
type cardNames struct {
	readable map[int]map[string]int // seat (or engine.Spectator) -> name -> version
	held     map[int]map[string]int // seat -> name -> version
	// vague are names inside other names, whose presence on a screen
	// proves nothing.
	vague map[string]bool
}

// replayNames replays room code from the server's store with the engine.
func replayNames(t *testing.T, srv *testServer, code string) cardNames {
	t.Helper()
	meta, moves, err := srv.store.Load(t.Context(), code, 0)
	if err != nil {
		t.Fatal(err)
	}
	s, err := factories.New(factories.Config{Players: len(meta.Seats), Undo: true}, meta.Seed) // as rooms play it
	if err != nil {
		t.Fatal(err)
	}
	c := cardNames{readable: map[int]map[string]int{}, held: map[int]map[string]int{}, vague: vagueNames()}
	first := func(m map[int]map[string]int, seat int, name string, version int) {
		if m[seat] == nil {
			m[seat] = map[string]int{}
		}
		if _, ok := m[seat][name]; !ok {
			m[seat][name] = version
		}
	}
	note := func(version int, events []factories.Event) {
		for seat := engine.Spectator; seat < len(meta.Seats); seat++ {
			v := factories.ViewOf(s, seat)
			v.Legal = nil // the moves a seat can make name only what it sees
			text, _ := json.Marshal(v)
			for _, e := range events {
				text = fmt.Appendf(text, "\n%s", e.For(seat))
			}
			for card := range factories.Card(factories.NumCards()) {
				if strings.Contains(string(text), card.Name()) || cardIn(v, card) {
					first(c.readable, seat, card.Name(), version)
				}
			}
			for _, card := range v.Hand {
				first(c.held, seat, card.Name(), version)
			}
		}
	}
	note(0, nil)
	for i, rec := range moves {
		var m factories.Move
		if err := json.Unmarshal(rec.Move, &m); err != nil {
			t.Fatal(err)
		}
		var events []factories.Event
		if s, events, err = factories.Apply(s, rec.Seat, m); err != nil {
			t.Fatalf("stored move %d: %v", i, err)
		}
		note(i+1, events)
	}
	return c
}

// cardIn reports whether the view shows card by number: in the
// marketplace, a compound or the hand.
func cardIn(v factories.View, card factories.Card) bool {
	if slices.Contains(v.Market.Blueprints[:], card) || slices.Contains(v.Hand, card) {
		return true
	}
	for _, p := range v.Players {
		if slices.ContainsFunc(p.Compound, func(b factories.Building) bool { return b.Card == card }) {
			return true
		}
	}
	return false
}

// secret lists the names that by version had been held by one of hands
// and never been readable by any of legit, leaving out vague ones.
func (c cardNames) secret(version int, hands, legit []int) []string {
	var out []string
	for card := range factories.Card(factories.NumCards()) {
		name := card.Name()
		held := slices.ContainsFunc(hands, func(s int) bool { v, ok := c.held[s][name]; return ok && v <= version })
		read := slices.ContainsFunc(legit, func(s int) bool { v, ok := c.readable[s][name]; return ok && v <= version })
		if held && !read && !slices.Contains(out, name) && !c.vague[name] {
			out = append(out, name)
		}
	}
	return out
}

// vagueNames lists the card names found inside another card's name.
func vagueNames() map[string]bool {
	var all []string
	for k := range factories.Contractor(factories.NumContractors()) {
		all = append(all, k.Name())
	}
	for card := range factories.Card(factories.NumCards()) {
		all = append(all, card.Name())
	}
	vague := map[string]bool{}
	for card := range factories.Card(factories.NumCards()) {
		name := card.Name()
		vague[name] = slices.ContainsFunc(all, func(other string) bool { return other != name && strings.Contains(other, name) })
	}
	return vague
}
