package factories

import (
	"errors"
	"strconv"

	"github.com/smokestack/smokestack/engine"
)

// refuse is a refused move: its English text, and its Words for the
// player's language, factories.refuse.ID in the catalogue. The
// catalogue's English words it as text; the screens' tests hold it so.
func refuse(id, text string, args ...engine.Arg) error {
	return engine.Refuse(text, engine.Say("factories.refuse."+id, args...))
}

// card and tool are a refusal's arguments naming a card or a tool,
// which the reader's language names as its edition prints them.
func card(name string, c Card) engine.Arg { return engine.CardArg(name, c.Name()) }
func tool(name string, t Tool) engine.Arg { return engine.TermArg(name, string(t)) }
func num(name string, n int) engine.Arg   { return engine.Num(name, n) }
func quoted(name, s string) engine.Arg    { return engine.Str(name, strconv.Quote(s)) }

// replicatorAs is the refusal of a Replicator copying name, which the
// copied recipe refused with err: "Replicator as Foundry: Foundry needs
// one die". Words carry no message inside another, so it is worded in
// other languages as the recipe's refusal alone, which names the copy.
func replicatorAs(name string, err error) error {
	text := "Replicator as " + name + ": " + err.Error()
	var r *engine.Refusal
	if errors.As(err, &r) {
		return engine.Refuse(text, r.Words)
	}
	return errors.New(text)
}

// choiceRefusal refuses a recipe's choice that is none of options:
// "Harvester: choose metal and energy".
func choiceRefusal(name string, options []string) error {
	args := []engine.Arg{engine.CardArg("Card", name)}
	for i, o := range options {
		args = append(args, engine.TermArg("Option"+strconv.Itoa(i+1), o))
	}
	return refuse("choice"+strconv.Itoa(len(options)), name+": choose "+joinNames(options), args...)
}

// undoWords are the Words of each reason a move may not be taken back
// (undoRefusal's, and the reasons a move stands that it quotes).
var undoWords = map[string]string{
	"taking moves back is off in this game":                                         "off",
	"nothing to take back: market moves show new cards or pass the turn":            "market",
	"nothing to take back: you are done with this work phase":                       "done",
	"nothing to take back yet this work phase":                                      "none",
	"nothing to take back: you triggered the end of the game, so it stands":         "end",
	"nothing to take back: the Black Market showed the card you sold, so it stands": "black_market",
	"nothing to take back: a build shows a card from your hand, so it stands":       "build",
	"nothing to take back: you drew a blueprint, and a draw cannot be taken back":   "draw",
	"nothing to take back: you rolled dice, and a roll cannot be taken back":        "roll",
	"your last move stands: its discards were shuffled into a new deck":             "shuffled",
	"your last move stands: its discards are no longer on the pile":                 "discards",
}

// undoRefused is the refusal of an undo for why, undoRefusal's reason.
func undoRefused(why string) error {
	if id, ok := undoWords[why]; ok {
		return refuse("undo_"+id, why)
	}
	return errors.New(why)
}

// costKind says which of costText's forms a cost takes: "both", "metal"
// or "energy", for a refusal's message ID.
func costKind(metal, energy int) string {
	switch {
	case metal > 0 && energy > 0:
		return "both"
	case metal > 0:
		return "metal"
	}
	return "energy"
}
