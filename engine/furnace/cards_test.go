package furnace

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// companyTable is the reference's company table (furnace-cards.md §2.3 and
// §2.5), typed by hand so that the data file and the engine are both held
// to it: compensation, basic line, the line the upgrade adds, confidence.
// "a -> b xN" is a processing, "+a" an extraction.
var companyTable = []struct {
	id, comp, basic, upgraded, confidence string
}{
	{"oil-01", "+1 iron", "+1 iron", "1 coal + 1 oil -> 6 money x2", "B"},
	{"oil-02", "2 coal -> 1 oil", "2 coal -> 1 oil x2", "1 coal + 1 iron -> 4 money x3", "C"},
	{"oil-03", "2 coal -> 1 oil", "1 coal -> 1 oil x1", "1 coal + 1 iron -> 4 money x3", "B"},
	{"oil-04", "1 iron -> 1 tokens", "1 iron -> 1 tokens x1", "3 coal -> 4 money x3", "C"},
	{"oil-05", "+2 coal", "+1 iron", "1 coal + 1 oil -> 6 money x2", "B"},
	{"oil-06", "+2 coal", "+1 iron", "1 iron + 1 oil -> 7 money x2", "B"},
	{"oil-07", "+1 iron", "1 iron -> 1 oil x2", "3 coal -> 4 money x3", "B"},
	{"oil-08", "+1 iron", "1 iron -> 1 tokens x1", "1 iron + 1 oil -> 7 money x2", "B"},
	{"oil-09", "1 oil -> 3 iron", "2 coal -> 1 oil x2", "1 coal + 1 iron -> 4 money x3", "B"},
	{"metal-01", "1 iron -> 1 oil", "1 iron -> 1 tokens x1", "2 iron -> 2 money x4", "C"},
	{"metal-02", "+2 coal", "1 tokens -> 5 money x1", "+3 coal", "B"},
	{"metal-03", "+2 coal", "1 oil -> 4 money x1", "+3 coal", "B"},
	{"metal-04", "+2 coal", "+1 iron", "1 oil -> 4 money x1", "B"},
	{"metal-05", "+2 coal", "+2 coal", "1 tokens -> 5 money x2", "B"},
	{"metal-06", "1 iron -> 1 tokens", "1 oil -> 4 money x1", "+3 coal", "B"},
	{"metal-07", "+1 iron", "+1 iron", "1 tokens -> 5 money x2", "B"},
	{"metal-08", "+1 iron", "1 tokens -> 5 money x1", "+2 iron", "B"},
	{"metal-09", "+1 iron", "+2 coal", "1 oil -> 4 money x2", "B"},
	{"metal-10", "+2 coal", "+2 coal", "1 oil -> 4 money x2", "B"},
	{"metal-11", "+2 coal", "+1 iron", "1 oil -> 4 money x2", "B"},
	{"metal-12", "1 iron -> 1 oil", "1 oil -> 4 money x1", "+1 iron +2 coal", "B"},
	{"mine-01", "+1 iron", "2 coal -> 2 money x2", "+1 oil", "B"},
	{"mine-02", "1 iron -> 1 oil", "+2 coal", "+1 oil", "B"},
	{"mine-03", "+1 iron", "+2 iron", "+1 iron", "C"},
	{"mine-04", "+2 coal", "+2 coal", "+3 coal", "B"},
	{"mine-05", "+2 coal", "+2 coal", "1 iron -> 2 money x4", "B"},
	{"mine-06", "2 coal -> 1 oil", "2 coal -> 2 money x2", "+2 iron", "A"},
	{"mine-07", "1 iron -> 1 tokens", "+2 coal", "2 iron -> 2 money x4", "B"},
	{"mine-08", "+1 iron", "+2 coal", "2 iron -> 2 money x4", "B"},
	{"mine-09", "+2 coal", "1 iron -> 2 money x2", "+3 coal", "A"},
	{"mine-10", "2 coal -> 1 oil", "2 coal -> 2 money x2", "+1 oil", "B"},
	{"example-01", "+1 iron", "+1 iron", "+2 iron", "stand-in"},
}

// startTable is the reference's start cards (§2.2): starting resources and
// the conversion line.
var startTable = []struct {
	id, resources, conversion, confidence string
}{
	{"start-1", "1 coal + 1 iron", "2 coal -> 2 money x2", "B"},
	{"start-2", "1 coal + 1 iron", "1 oil -> 4 money x1", "A"},
	{"start-3", "2 coal", "3 coal -> 4 money x1", "A"},
	{"start-4", "2 coal", "1 iron -> 2 money x2", "B"},
	{"start-5", "1 tokens", "1 coal + 1 iron -> 4 money x1", "A"},
}

// parseGoods reads "1 coal + 1 oil" or "+1 iron +2 coal".
func parseGoods(t testing.TB, text string) Goods {
	t.Helper()
	var g Goods
	for _, part := range strings.Split(strings.ReplaceAll(text, "+", " + "), "+") {
		f := strings.Fields(part)
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			t.Fatalf("cannot read %q", text)
		}
		n, err := strconv.Atoi(f[0])
		if err != nil {
			t.Fatalf("cannot read %q: %v", text, err)
		}
		switch f[1] {
		case "coal":
			g.Coal += n
		case "iron":
			g.Iron += n
		case "oil":
			g.Oil += n
		case "tokens":
			g.Tokens += n
		case "money":
			g.Money += n
		default:
			t.Fatalf("no resource %q in %q", f[1], text)
		}
	}
	return g
}

// parseLine reads the table's notation into a Line.
func parseLine(t testing.TB, text string) Line {
	t.Helper()
	if strings.HasPrefix(text, "+") {
		return Line{Gain: parseGoods(t, text)}
	}
	pay, rest, ok := strings.Cut(text, " -> ")
	if !ok {
		t.Fatalf("cannot read %q", text)
	}
	l := Line{Pay: parseGoods(t, pay)}
	gain, times, ok := strings.Cut(rest, " x")
	l.Gain = parseGoods(t, gain)
	if ok {
		n, err := strconv.Atoi(times)
		if err != nil {
			t.Fatalf("cannot read %q", text)
		}
		l.Times = n
	}
	return l
}

// TestCardData holds cards.json to the reference's tables: the same 32
// companies in the same order, each line and confidence as typed here,
// a note on every C and stand-in card; the 5 start cards; the 5
// capitalists.
func TestCardData(t *testing.T) {
	if NumCompanies() != 32 || len(companyTable) != 32 {
		t.Fatalf("%d companies in the data, %d in the table; the deck is 32 cards", NumCompanies(), len(companyTable))
	}
	for i, want := range companyTable {
		c := Card(i + 1)
		got := c.Company()
		if got.ID != want.id {
			t.Fatalf("company %d is %s, want %s", i+1, got.ID, want.id)
		}
		for _, l := range []struct {
			name string
			got  Line
			want string
		}{{"compensation", got.Compensation, want.comp}, {"basic", got.Basic, want.basic}, {"upgraded", got.Upgraded, want.upgraded}} {
			if w := parseLine(t, l.want); l.got != w {
				t.Errorf("%s %s line: %+v, want %+v (%s)", want.id, l.name, l.got, w, l.want)
			}
		}
		if got.Confidence != want.confidence {
			t.Errorf("%s: confidence %q, want %q", want.id, got.Confidence, want.confidence)
		}
		if (got.Confidence == "C" || got.Confidence == "stand-in") && got.Note == "" {
			t.Errorf("%s is %s with no note", want.id, got.Confidence)
		}
		if c.IsStart() || CardOf(t, want.id) != c {
			t.Errorf("%s is not company %d", want.id, i+1)
		}
	}
	if len(StartCards()) != 5 {
		t.Fatalf("%d start cards", len(StartCards()))
	}
	for i, want := range startTable {
		c := Card(NumCompanies() + 1 + i)
		s := c.Start()
		if !c.IsStart() || s.ID != want.id || s.Resources != parseGoods(t, want.resources) ||
			s.Conversion != parseLine(t, want.conversion) || s.Confidence != want.confidence {
			t.Errorf("start card %d: %+v, want %+v", i+1, s, want)
		}
		lines := c.Lines(false)
		if len(lines) != 3 || lines[0] != (Line{Gain: Goods{Tokens: 1}}) || !lines[2].Upgrade || lines[1] != s.Conversion {
			t.Errorf("%s resolves %+v", want.id, lines)
		}
	}
	names := map[Capitalist]string{Evariste: "Évariste", Henry: "Henry", Monica: "Monica", Arthur: "Arthur", Timur: "Timur"}
	if len(Capitalists()) != len(names) {
		t.Fatalf("%d capitalists", len(Capitalists()))
	}
	for id, name := range names {
		if id.Name() != name || id.Info().Power == "" {
			t.Errorf("capitalist %s: %+v", id, id.Info())
		}
	}
}

// CardOf is CardByID for tests.
func CardOf(t testing.TB, id string) Card { return card(t, id) }

// TestLoadCardsRefusesBadData: a corrected cards.json with a mistake in it
// is refused with the reason, not played.
func TestLoadCardsRefusesBadData(t *testing.T) {
	good := `{"id":"a-1","compensation":{"gain":{"iron":1}},"basic":{"gain":{"iron":1}},"upgraded":{"gain":{"coal":1}},"confidence":"B"}`
	start := `"starts":[{"id":"s-1","resources":{"coal":1},"conversion":{"pay":{"coal":1},"gain":{"money":1},"times":1},"confidence":"A"}]`
	caps := `"capitalists":[{"id":"evariste"},{"id":"henry"},{"id":"monica"},{"id":"arthur"},{"id":"timur"}]`
	file := func(companies string) string {
		return `{"companies":[` + companies + `],` + start + `,` + caps + `}`
	}
	for _, tc := range []struct{ data, want string }{
		{file(strings.Replace(good, `"B"`, `"D"`, 1)), `confidence "D"`},
		{file(strings.Replace(good, `"B"`, `"C"`, 1)), "needs a note"},
		{file(good + "," + good), `two cards are called "a-1"`},
		{file(strings.Replace(good, `"upgraded":{"gain":{"coal":1}}`, `"upgraded":{"pay":{"coal":1},"gain":{"oil":1}}`, 1)), "times of at least 1"},
		{file(strings.Replace(good, `"compensation":{"gain":{"iron":1}}`, `"compensation":{"pay":{"iron":1},"gain":{"oil":1},"times":2}`, 1)), "the disc is the multiplier"},
		{file(strings.Replace(good, `"gain":{"coal":1}`, `"gain":{"coal":-1}`, 1)), "negative"},
		{file(strings.Replace(good, `"confidence"`, `"confidance"`, 1)), "unknown field"},
		{file(good)[:len(file(good))-len(caps)-2] + `,"capitalists":[{"id":"bob"},{"id":"henry"},{"id":"monica"},{"id":"arthur"},{"id":"timur"}]}`, `capitalist "bob"`},
	} {
		err := loadCards([]byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("loadCards: %v; want an error containing %q", err, tc.want)
		}
	}
	if err := loadCards([]byte(file(good))); err != nil {
		t.Fatalf("a small good file: %v", err)
	}
	// Put the real tables back for the other tests.
	if err := loadCards(cardsJSON); err != nil {
		t.Fatal(err)
	}
}

// plenty is more of every resource than any one card can use.
var plenty = Goods{Coal: 20, Iron: 20, Oil: 20, Tokens: 20}

// expect is what resolving lines with the given counts does to goods, by
// the table's notation and plain arithmetic.
func expect(goods Goods, lines []Line, t Times) Goods {
	k := 0
	for _, l := range lines {
		if l.Pay.IsZero() {
			goods = goods.Plus(l.Gain)
			continue
		}
		goods = goods.Minus(l.Pay.Times(t[k])).Plus(l.Gain.Times(t[k]))
		k++
	}
	return goods
}

// TestEveryCompanyProduces resolves each of the 32 companies on both sides
// with every count of processing allowed, and checks the goods against the
// table; one more than the card's limit is refused.
func TestEveryCompanyProduces(t *testing.T) {
	for _, row := range companyTable {
		for _, upgraded := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/upgraded=%v", row.id, upgraded), func(t *testing.T) {
				set := seatSetup{Cards: []string{row.id}, Goods: plenty}
				lines := []Line{parseLine(t, row.basic)}
				if upgraded {
					set = seatSetup{Upgraded: []string{row.id}, Goods: plenty}
					lines = append(lines, parseLine(t, row.upgraded))
				}
				s := table{Seats: []seatSetup{set}}.build(t)
				var limits []int
				for _, l := range lines {
					if !l.Pay.IsZero() {
						limits = append(limits, l.Times)
					}
				}
				c := card(t, row.id)
				tried := 0
				for t0 := range limitOf(limits, 0) + 1 {
					for t1 := range limitOf(limits, 1) + 1 {
						times := Times{t0, t1}
						next, events := mustApply(t, s, 0, Move{Kind: Produce, Card: c, Times: times})
						if got, want := next.Players[0].Goods, expect(plenty, lines, times); got != want {
							t.Errorf("times %v: goods %+v, want %+v", times, got, want)
						}
						if !ownedCard(t, next, 0, row.id).Used || len(events) != 1 || !strings.Contains(events[0].Text, row.id) {
							t.Errorf("times %v: not marked used, or events %v", times, events)
						}
						tried++
					}
				}
				if tried != (limitOf(limits, 0)+1)*(limitOf(limits, 1)+1) {
					t.Errorf("tried %d counts", tried)
				}
				for i, limit := range limits {
					over := Times{}
					over[i] = limit + 1
					mustRefuse(t, s, 0, Move{Kind: Produce, Card: c, Times: over}, "is done at most")
				}
				if len(limits) < 2 {
					over := Times{}
					over[len(limits)] = 1
					mustRefuse(t, s, 0, Move{Kind: Produce, Card: c, Times: over}, "to process")
				}
			})
		}
	}
}

// limitOf is the kth processing limit, 0 when the card has no such line.
func limitOf(limits []int, k int) int {
	if k < len(limits) {
		return limits[k]
	}
	return 0
}

// TestEveryCompensation resolves each company's compensation for a losing
// disc of every value 1-4, in a 3-player auction's last placement: an
// extraction pays value times the line, a processing may be done 0 to
// value times. Henry's discs count one higher. A losing 4 takes a tie, so
// it is Monica's (she loses ties).
func TestEveryCompensation(t *testing.T) {
	for _, row := range companyTable {
		line := parseLine(t, row.comp)
		for v := 1; v <= 4; v++ {
			for _, capitalist := range []Capitalist{"", Henry, Monica} {
				if (v == 4) != (capitalist == Monica) {
					continue
				}
				t.Run(fmt.Sprintf("%s/disc %d/%s", row.id, v, capitalist), func(t *testing.T) {
					s := lastPlacement(t, row.id, capitalist, v)
					c := card(t, row.id)
					next, _ := mustApply(t, s, 0, Move{Kind: Bid, Card: c, Disc: v})
					k := v
					if capitalist == Henry {
						k++
					}
					final := next
					if line.Pay.IsZero() {
						if next.Phase != ProductionPhase {
							t.Fatalf("phase %s after an extraction compensation", next.Phase)
						}
						if got, want := next.Players[0].Goods, plenty.Plus(line.Gain.Times(k)); got != want {
							t.Errorf("goods %+v, want %+v", got, want)
						}
					} else {
						if next.Phase != ResolvePhase || next.Players[0].Owed != k {
							t.Fatalf("phase %s, owed %d; want resolve, %d", next.Phase, next.Players[0].Owed, k)
						}
						if got := Legal(next, 0); len(got) != k+1 {
							t.Errorf("legal %v; want compensate 0 to %d", got, k)
						}
						mustRefuse(t, next, 0, Move{Kind: Compensate, Times: Times{k + 1}}, "allow at most")
						for n := 0; n <= k; n++ {
							done, _ := mustApply(t, next, 0, Move{Kind: Compensate, Times: Times{n}})
							if got, want := done.Players[0].Goods, plenty.Minus(line.Pay.Times(n)).Plus(line.Gain.Times(n)); got != want {
								t.Errorf("compensate %d: goods %+v, want %+v", n, got, want)
							}
							if done.Phase != ProductionPhase {
								t.Errorf("compensate %d: phase %s", n, done.Phase)
							}
							final = done
						}
					}
					// The winner, seat 1 with its 4, gets the card and no
					// compensation; the loser does not get the card.
					if got := final.Players[1]; got.Goods != plenty || got.owned(c) < 0 || final.Players[0].owned(c) >= 0 {
						t.Errorf("the winner has %+v and cards %+v", got.Goods, got.Cards)
					}
				})
			}
		}
	}
}

// lastPlacement builds a 3-player auction of one card in which seat 1 has
// put its 4 on the card and seat 0, holding only its disc v, is to place
// the last disc; seat 2 is out.
func lastPlacement(t testing.TB, id string, capitalist Capitalist, v int) State {
	t.Helper()
	s := table{Players: 3, Phase: AuctionPhase, Config: Config{Capitalists: capitalist != ""},
		Seats: []seatSetup{{Capitalist: capitalist, Goods: plenty}, {Goods: plenty}, {}}, Market: []string{id}}.build(t)
	s.Market[0].Discs = []Disc{{Seat: 1, Value: 4}}
	s.Players[0].Discs = 1 << v
	s.Players[1].Bidder = Bidder{Out: true}
	s.Players[2].Bidder = Bidder{Out: true}
	return s
}

// TestEveryStartCard: each start card gives its resources once, at setup,
// and resolves as +1 upgrade token, its conversion, then opens the
// upgrade line.
func TestEveryStartCard(t *testing.T) {
	seen := map[string]bool{}
	for seed := uint64(0); len(seen) < len(startTable) && seed < 200; seed++ {
		s, err := New(Config{Players: 4}, seed)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range s.Players {
			start := p.Cards[0].Card
			for _, row := range startTable {
				if row.id == start.ID() {
					seen[row.id] = true
					if p.Goods != parseGoods(t, row.resources) {
						t.Errorf("%s: a new seat has %+v, want %s", row.id, p.Goods, row.resources)
					}
				}
			}
		}
	}
	if len(seen) != len(startTable) {
		t.Fatalf("only %v dealt in 200 games", seen)
	}
	for _, row := range startTable {
		t.Run(row.id, func(t *testing.T) {
			conv := parseLine(t, row.conversion)
			s := table{Seats: []seatSetup{{Start: row.id, Cards: []string{"mine-04"}, Goods: plenty}}}.build(t)
			c := card(t, row.id)
			for n := 0; n <= conv.Times; n++ {
				next, _ := mustApply(t, s, 0, Move{Kind: Produce, Card: c, Times: Times{n}})
				want := plenty.Plus(Goods{Tokens: 1}).Minus(conv.Pay.Times(n)).Plus(conv.Gain.Times(n))
				if got := next.Players[0].Goods; got != want {
					t.Errorf("times %d: goods %+v, want %+v", n, got, want)
				}
				if next.Players[0].Open != c || !hasLegal(next, 0, Move{Kind: Upgrade, Card: card(t, "mine-04")}) {
					t.Errorf("times %d: the upgrade line is not open", n)
				}
			}
			mustRefuse(t, s, 0, Move{Kind: Produce, Card: c, Times: Times{conv.Times + 1}}, "is done at most")
			mustRefuse(t, s, 0, Move{Kind: Upgrade, Card: c}, "resolve the start card first")
		})
	}
}
