package server

import (
	"strings"
	"testing"
	"time"
)

// TestPlayThroughThreeLanguagesAtOneTable: alice reads Polish, bob
// Russian and carol Portuguese (their ssh's LANG), seated at one
// Fantastic Factories table; the first move of the game reaches each
// log as the same events, each in its reader's language, and none in
// English, and so do the rolls of the work phase.
func TestPlayThroughThreeLanguagesAtOneTable(t *testing.T) {
	srv := startServer(t)
	code := newRoom(t, dialKey(t, srv.addr, "host", newKey(t)), "--game factories --players 3")
	seat := func(name, lang string) *player {
		p := &player{t: t, name: name, key: newKey(t), addr: srv.addr, w: 120, h: 40, env: map[string]string{"LANG": lang}}
		p.connect("join " + code)
		return p
	}
	alice := seat("alice", "pl_PL.UTF-8")
	alice.sees("alice")
	bob := seat("bob", "ru_RU.UTF-8")
	bob.sees("bob")
	carol := seat("carol", "pt_BR.UTF-8")
	people := []*player{alice, bob, carol}
	// Whoever's turn it is, by their own header, plays the menu's first
	// move. Only they press: another's enter racing theirs could land on
	// the next turn and be a second move.
	board := map[*player]string{alice: "RYNEK", bob: "РЫНОК", carol: "MERCADO"}
	turn := map[*player]string{alice: "twoja tura", bob: "ваш ход", carol: "sua vez"}
	var mover *player
	for _, p := range people {
		p.sees(board[p])
		if strings.Contains(p.screen(), turn[p]) {
			mover = p
		}
	}
	if mover == nil {
		t.Fatalf("nobody's header says it is their turn; alice's screen:\n%s", alice.screen())
	}
	mover.press("enter")
	market := map[*player]string{alice: "nowe na Rynku: ", bob: "новое на рынке: ", carol: "novo no mercado: "}
	for p, line := range market {
		p.sees(line)
		p.seesNo("new in the marketplace", "from the marketplace", "to refresh the")
	}
	// The mover reads their own move as theirs, the others by name.
	verbs := map[*player][]string{alice: {" bierze z Rynku kartę ", " płaci "}, bob: {" берёт с рынка карту ", " платит "}, carol: {" pegou ", " pagou "}}
	yours := map[*player]string{alice: "Ty bierzesz", bob: "Вы берёте", carol: "Você pegou"}
	mover.sees(yours[mover])
	for _, p := range people {
		if p == mover {
			continue
		}
		p.waitScreen(mover.name+"'s move in "+p.env["LANG"], func(s string) bool {
			for _, v := range verbs[p] {
				if strings.Contains(s, mover.name+v) {
					return true
				}
			}
			return false
		})
	}
	// The others draft too; the work phase rolls everyone's dice, which
	// every log tells in its own words.
	rolled := map[*player]string{alice: "Kośćmi: ", bob: "кубики: ", carol: " rolou "}
	sawRolls := func() bool {
		for p, line := range rolled {
			if !strings.Contains(p.screen(), line) {
				return false
			}
		}
		return true
	}
	for i := 0; !sawRolls(); i++ {
		if i == 100 {
			t.Fatalf("no rolls in every log; alice's screen:\n%s", alice.screen())
		}
		for _, p := range people {
			p.press("enter") // the acting seat's draft; refused for the others
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, p := range people {
		p.seesNo("You rolled", "alice rolled", "bob rolled", "carol rolled")
	}
}
