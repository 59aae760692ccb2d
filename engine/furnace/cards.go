package furnace

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/smokestack/smokestack/engine"
)

// Card identifies one card: a company (1 to NumCompanies(), in the order of
// cards.json) or a start card (after the companies). The zero Card is no
// card. In JSON a Card is its id, such as "oil-03" or "start-2".
type Card int16

// NoCard is the zero Card: no card at all.
const NoCard Card = 0

// Line is one effect line of a card. A line that pays nothing is an
// extraction (Gain is received, always); one that pays is a processing
// (Pay may be turned into Gain up to Times times, at the owner's choice).
// A compensation line has no Times: the disc's value is the multiplier.
// The start cards' last line is Upgrade.
type Line struct {
	Pay     Goods `json:"pay,omitzero"`
	Gain    Goods `json:"gain,omitzero"`
	Times   int   `json:"times,omitempty"`
	Upgrade bool  `json:"upgrade,omitempty"`
}

// Processing reports whether the line turns something into something else
// (optional) rather than extracting it (mandatory).
func (l Line) Processing() bool { return !l.Pay.IsZero() }

// String words the line as the card shows it: "+2 coal", "1 iron → 1 oil ×2".
func (l Line) String() string {
	switch {
	case l.Upgrade:
		return "upgrade any number of your companies for 1 coal + 1 upgrade token each"
	case !l.Processing():
		return "+" + joinGoods(l.Gain, " +")
	case l.Times > 0:
		return joinGoods(l.Pay, " +") + " → " + joinGoods(l.Gain, " +") + " ×" + strconv.Itoa(l.Times)
	}
	return joinGoods(l.Pay, " +") + " → " + joinGoods(l.Gain, " +")
}

// joinGoods words g as "1 coal + 1 oil" (sep " +") for card lines.
func joinGoods(g Goods, sep string) string {
	return strings.ReplaceAll(strings.ReplaceAll(g.String(), " and ", sep+" "), ",", sep)
}

// Company is one company card as printed: the compensation its losing
// bidders get, its basic line, and the line its upgraded side adds.
type Company struct {
	ID           string `json:"id"`
	Compensation Line   `json:"compensation"`
	Basic        Line   `json:"basic"`
	Upgraded     Line   `json:"upgraded"`
	// Confidence is how sure the data is: A (two independent public
	// sources), B (one detailed source), C (one source with a doubt, told
	// in Note) or stand-in (an invented value, told in Note).
	Confidence string `json:"confidence"`
	Note       string `json:"note,omitempty"`
}

// StartCard is one single-sided start card: the resources it gives once
// at setup and its conversion. Every start card's first line gives 1
// upgrade token and its last upgrades companies; only the middle differs.
type StartCard struct {
	ID         string `json:"id"`
	Resources  Goods  `json:"resources"`
	Conversion Line   `json:"conversion"`
	Confidence string `json:"confidence"`
	Note       string `json:"note,omitempty"`
}

// Capitalist names a capitalist card; the zero value is none (the module
// is off).
type Capitalist string

// The five capitalists. Their powers are rules, written in the engine;
// cards.json holds their names and wording.
const (
	Evariste Capitalist = "evariste"
	Henry    Capitalist = "henry"
	Monica   Capitalist = "monica"
	Arthur   Capitalist = "arthur"
	Timur    Capitalist = "timur"
)

// CapitalistCard is a capitalist's name and power as the card words them.
type CapitalistCard struct {
	ID         Capitalist `json:"id"`
	Name       string     `json:"name"`
	Power      string     `json:"power"`
	Confidence string     `json:"confidence"`
	Note       string     `json:"note,omitempty"`
}

//go:embed cards.json
var cardsJSON []byte

// The card tables are read-only data decoded once from cards.json, the one
// file to replace to correct a card; the rules never write to them.
var (
	companies   []Company
	starts      []StartCard
	capitalists []CapitalistCard
	// cardLines holds each Card's lines by side (0 basic, 1 upgraded): a
	// company's basic side has its basic line, its upgraded side both; a
	// start card has the same three lines on both. Index 0 is NoCard.
	cardLines [][2][]Line
	// processing counts each side's processing lines, the entries a
	// produce move's Times has.
	processing [][2]int
	cardIDs    map[string]Card
)

func init() {
	if err := loadCards(cardsJSON); err != nil {
		panic("furnace: cards.json: " + err.Error())
	}
}

// startLines are the lines every start card shares around its conversion.
var (
	tokenLine   = Line{Gain: Goods{Tokens: 1}}
	upgradeLine = Line{Upgrade: true}
)

// loadCards decodes and checks the card data into the tables.
func loadCards(data []byte) error {
	var file struct {
		About       string           `json:"about"`
		Companies   []Company        `json:"companies"`
		Starts      []StartCard      `json:"starts"`
		Capitalists []CapitalistCard `json:"capitalists"`
	}
	// Unknown fields are refused: a misspelt key in a corrected file
	// would otherwise silently read as zero.
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&file); err != nil {
		return err
	}
	ids := map[string]Card{}
	lines := [][2][]Line{{}}
	counts := [][2]int{{}}
	add := func(id string, basic, upgraded []Line) error {
		if id == "" {
			return fmt.Errorf("card %d has no id", len(lines))
		}
		if _, dup := ids[id]; dup {
			return fmt.Errorf("two cards are called %q", id)
		}
		for _, l := range slices.Concat(basic, upgraded) {
			if err := checkLine(l, true); err != nil {
				return fmt.Errorf("%s: %w", id, err)
			}
		}
		ids[id] = Card(len(lines))
		lines = append(lines, [2][]Line{basic, upgraded})
		counts = append(counts, [2]int{countProcessing(basic), countProcessing(upgraded)})
		return nil
	}
	for _, c := range file.Companies {
		if err := checkConfidence(c.Confidence, c.Note); err != nil {
			return fmt.Errorf("%s: %w", c.ID, err)
		}
		if err := checkLine(c.Compensation, false); err != nil {
			return fmt.Errorf("%s compensation: %w", c.ID, err)
		}
		if err := add(c.ID, []Line{c.Basic}, []Line{c.Basic, c.Upgraded}); err != nil {
			return err
		}
	}
	for _, s := range file.Starts {
		if err := checkConfidence(s.Confidence, s.Note); err != nil {
			return fmt.Errorf("%s: %w", s.ID, err)
		}
		if s.Conversion.Upgrade {
			return fmt.Errorf("%s: the conversion cannot be the upgrade line", s.ID)
		}
		three := []Line{tokenLine, s.Conversion, upgradeLine}
		if err := add(s.ID, three, three); err != nil {
			return err
		}
	}
	if len(file.Companies) == 0 || len(file.Starts) == 0 {
		return fmt.Errorf("%d companies and %d start cards; need some of each", len(file.Companies), len(file.Starts))
	}
	want := []Capitalist{Evariste, Henry, Monica, Arthur, Timur}
	if len(file.Capitalists) != len(want) {
		return fmt.Errorf("%d capitalists; the rules know these %d: %v", len(file.Capitalists), len(want), want)
	}
	for _, c := range file.Capitalists {
		if !slices.Contains(want, c.ID) {
			return fmt.Errorf("capitalist %q: the rules know %v", c.ID, want)
		}
	}
	companies, starts, capitalists = file.Companies, file.Starts, file.Capitalists
	cardLines, processing, cardIDs = lines, counts, ids
	return nil
}

// checkLine refuses a line the rules cannot play: negative amounts, a
// processing line with no multiplier (printed lines) or with one
// (compensation), or one that gains nothing.
func checkLine(l Line, printed bool) error {
	if l.Upgrade {
		return nil
	}
	if !l.Pay.Covers(Goods{}) || !l.Gain.Covers(Goods{}) {
		return fmt.Errorf("line %v has a negative amount", l)
	}
	if l.Gain.IsZero() {
		return fmt.Errorf("line %v gains nothing", l)
	}
	switch {
	case printed && l.Processing() && l.Times < 1:
		return fmt.Errorf("processing line %v needs times of at least 1", l)
	case !l.Processing() && l.Times != 0:
		return fmt.Errorf("extraction line %v has times", l)
	case !printed && l.Times != 0:
		return fmt.Errorf("compensation %v has times: the disc is the multiplier", l)
	case printed && l.Times > maxTimes:
		return fmt.Errorf("line %v: times above %d", l, maxTimes)
	}
	return nil
}

// checkConfidence refuses a confidence mark other than A, B, C and
// stand-in, and a doubt (C) or stand-in that does not say what it is.
func checkConfidence(mark, note string) error {
	switch mark {
	case "A", "B":
		return nil
	case "C", "stand-in":
		if note == "" {
			return fmt.Errorf("confidence %s needs a note saying why", mark)
		}
		return nil
	}
	return fmt.Errorf("confidence %q: use A, B, C or stand-in", mark)
}

// maxTimes bounds a printed multiplier (the cards print 1 to 4).
const maxTimes = 9

func countProcessing(lines []Line) int {
	n := 0
	for _, l := range lines {
		if l.Processing() {
			n++
		}
	}
	return n
}

// NumCompanies is the number of company cards in the deck (32).
func NumCompanies() int { return len(companies) }

// Companies returns every company card, in Card order (Card 1 first).
func Companies() []Company { return slices.Clone(companies) }

// StartCards returns every start card, in Card order.
func StartCards() []StartCard { return slices.Clone(starts) }

// Capitalists returns the capitalist cards.
func Capitalists() []CapitalistCard { return slices.Clone(capitalists) }

// CardByID returns the card with the given id.
func CardByID(id string) (Card, bool) {
	c, ok := cardIDs[id]
	return c, ok
}

// valid reports whether c is a card of the game.
func (c Card) valid() bool { return c > 0 && int(c) < len(cardLines) }

// IsStart reports whether c is a start card.
func (c Card) IsStart() bool { return c.valid() && int(c) > len(companies) }

// ID is the card's id, "oil-03"; "" for NoCard.
func (c Card) ID() string {
	switch {
	case c.IsStart():
		return starts[int(c)-len(companies)-1].ID
	case c.valid():
		return companies[c-1].ID
	case c == NoCard:
		return ""
	}
	return "card " + strconv.Itoa(int(c))
}

// String is the card's id.
func (c Card) String() string { return c.ID() }

// Company returns the printed company; the zero Company for a start card.
func (c Card) Company() Company {
	if !c.valid() || c.IsStart() {
		return Company{}
	}
	return companies[c-1]
}

// Start returns the printed start card; the zero StartCard for a company.
func (c Card) Start() StartCard {
	if !c.IsStart() {
		return StartCard{}
	}
	return starts[int(c)-len(companies)-1]
}

// Lines returns the lines the card resolves, top to bottom, on its basic
// or upgraded side.
func (c Card) Lines(upgraded bool) []Line { return slices.Clone(c.lines(upgraded)) }

// lines is Lines without the copy, for the rules' own reading.
func (c Card) lines(upgraded bool) []Line {
	if !c.valid() {
		return nil
	}
	if upgraded {
		return cardLines[c][1]
	}
	return cardLines[c][0]
}

// processingLines counts the lines on a side that a produce move's Times
// gives counts for.
func (c Card) processingLines(upgraded bool) int {
	if !c.valid() {
		return 0
	}
	if upgraded {
		return processing[c][1]
	}
	return processing[c][0]
}

// compensation is the company's compensation line.
func (c Card) compensation() Line {
	if !c.valid() || c.IsStart() {
		return Line{}
	}
	return companies[c-1].Compensation
}

// MarshalText writes the card's id.
func (c Card) MarshalText() ([]byte, error) {
	if c != NoCard && !c.valid() {
		return nil, fmt.Errorf("no card %d", int(c))
	}
	return []byte(c.ID()), nil
}

// UnmarshalJSON reads a card id, a JSON string; anything else is
// refused in words a player can act on.
func (c *Card) UnmarshalJSON(b []byte) error {
	if n := len(b); n >= 2 && b[0] == '"' && b[n-1] == '"' && !bytes.ContainsRune(b, '\\') {
		return c.UnmarshalText(b[1 : n-1]) // the usual case, read in place: bots read many
	}
	var id string
	if err := json.Unmarshal(b, &id); err != nil {
		return refuse(fmt.Sprintf("a card is named by its id, like \"oil-03\", not %.20s", b), "furnace.refuse.cardNotString",
			engine.Str("Value", fmt.Sprintf("%.20s", b)))
	}
	return c.UnmarshalText([]byte(id))
}

// UnmarshalText reads a card id; "" is NoCard.
func (c *Card) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*c = NoCard
		return nil
	}
	id, ok := cardIDs[string(b)]
	if !ok {
		return refuse(fmt.Sprintf("no card is called %q", b), "furnace.refuse.noSuchCard", engine.Str("Name", fmt.Sprintf("%q", b)))
	}
	*c = id
	return nil
}

// Info returns the capitalist's card; the zero card for none.
func (c Capitalist) Info() CapitalistCard {
	for _, k := range capitalists {
		if k.ID == c {
			return k
		}
	}
	return CapitalistCard{}
}

// Name is the capitalist's name, "Évariste".
func (c Capitalist) Name() string { return c.Info().Name }
