package engine

import "strconv"

// Words are a text for a translator: the ID of a message in the game's
// catalogue and its arguments. An event or a refusal carries its Words
// beside its English text, so each reader's screen words it in their own
// language, and a stored game replays into any language because its
// events are made again from its moves.
type Words struct {
	ID   string `json:"id"`
	Args []Arg  `json:"args,omitempty"`
}

// Arg is one argument of Words. A card's or a game term's value is its
// English key, which the reader's language names ("GAME.card.KEY",
// "GAME.term.KEY" in the catalogue); a plain value is shown as it is.
type Arg struct {
	Name  string  `json:"name"`
	Value string  `json:"value"`
	Kind  ArgKind `json:"kind,omitempty"`
	// List holds the items of a List or Steps argument, each worded in
	// the reader's language.
	List []Words `json:"list,omitempty"`
}

// ArgKind says how an argument is worded.
type ArgKind string

// The kinds of argument: as it is, a card's name, a game's term, and
// Words worded in turn and joined, as a list ("A, B and C"), as items
// ("A, B, C") or as steps ("A; B").
const (
	Plain ArgKind = ""
	Card  ArgKind = "card"
	Term  ArgKind = "term"
	List  ArgKind = "list"
	Items ArgKind = "items"
	Steps ArgKind = "steps"
)

// Say makes Words of id and its arguments.
func Say(id string, args ...Arg) Words { return Words{ID: id, Args: args} }

// Num is a number argument; an argument named N is also the count a
// plural message takes its form from.
func Num(name string, n int) Arg { return Arg{Name: name, Value: strconv.Itoa(n)} }

// Str is an argument shown as it is: a seat's name, a die face list.
func Str(name, v string) Arg { return Arg{Name: name, Value: v} }

// CardArg is a card named by its English key.
func CardArg(name, key string) Arg { return Arg{Name: name, Value: key, Kind: Card} }

// TermArg is a game term ("metal", "energy") named by its English key.
func TermArg(name, key string) Arg { return Arg{Name: name, Value: key, Kind: Term} }

// ListArg is Words worded in turn and joined as a list: "A, B and C" in
// English. One item words as itself, so it also nests one text in
// another.
func ListArg(name string, items ...Words) Arg { return Arg{Name: name, Kind: List, List: items} }

// ItemsArg is Words worded in turn and joined with commas: "A, B, C".
func ItemsArg(name string, items ...Words) Arg { return Arg{Name: name, Kind: Items, List: items} }

// StepsArg is Words worded in turn and joined as steps: "A; B".
func StepsArg(name string, items ...Words) Arg { return Arg{Name: name, Kind: Steps, List: items} }

// Refusal is a move refused for a reason the player reads: its English
// text, and its Words for the player's language. Engines return it (or
// wrap it) where they refuse a move; errors.As finds it.
type Refusal struct {
	Words
	Text string
}

func (r *Refusal) Error() string { return r.Text }

// Refuse returns a Refusal worded text in English and w for translation.
func Refuse(text string, w Words) error { return &Refusal{Words: w, Text: text} }
