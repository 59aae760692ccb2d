package room

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// A guest has no key, so a guest's identity lasts one connection: on
// their own they could never take their seat back. So a guest who sits
// down is given a seat word ("maple-42"), shown on their screen only; a
// guest who comes back within the room's grace period (votes.go), from
// the address they sat down from, and joins with the room's code and
// that word ("join K7PXMA maple-42") takes the seat back. After that the
// seat is like any other away seat: the table hands it to a bot.
//
// Guessing: a word is one of 256 words and a number from 10 to 999, so
// 253,440 words, and only a guess from the guest's own address (the same
// address, or IPv6 /64, the lookup limits count by) within the grace
// period can open the seat. Every wrong word counts as a failed room
// lookup (lookups.go), so one address has --lookup-misses guesses an
// hour (20 by default): about one chance in 12,000 to open a seat in a
// window, and only for someone who shares the guest's address. A wrong
// word is told the same whatever was wrong (the word, the address, the
// time), so a guess learns nothing.

// seatWords are short, common words, easy to read off a screen and type.
var seatWords = [...]string{
	"acorn", "alder", "amber", "anchor", "apple", "apron", "arrow",
	"aspen", "badge", "bagel", "baker", "bamboo", "banjo", "barley",
	"basil", "beach", "beacon", "bean", "beaver", "bell", "berry",
	"birch", "biscuit", "bison", "blade", "bloom", "boat", "bonnet",
	"boot", "bramble", "brass", "bread", "brick", "bridge", "brook",
	"broom", "bubble", "bucket", "buckle", "bugle", "bunny", "butter",
	"button", "cabin", "cable", "cactus", "camel", "canal", "candle",
	"canoe", "canyon", "carrot", "castle", "cedar", "cello", "chalk",
	"cherry", "chess", "cider", "cinder", "clay", "cliff", "cloud",
	"clover", "cobble", "comet", "copper", "coral", "cotton", "cove",
	"crane", "crayon", "creek", "cricket", "crown", "cymbal", "daisy",
	"dandy", "delta", "denim", "desert", "dingo", "dolphin", "donkey",
	"dove", "dragon", "drum", "dune", "eagle", "easel", "ember",
	"falcon", "fable", "feather", "fern", "ferry", "fiddle", "field",
	"finch", "flint", "flute", "forest", "fossil", "fox", "frost",
	"garnet", "gecko", "ginger", "glacier", "glove", "goose", "granite",
	"grape", "gravel", "grove", "gull", "hammock", "harbor", "harp",
	"hazel", "heron", "hill", "hollow", "honey", "hoop", "hornet",
	"iris", "island", "ivory", "ivy", "jasper", "jelly", "jester",
	"juniper", "kayak", "kettle", "kite", "koala", "ladder", "lagoon",
	"lantern", "lark", "laurel", "lemon", "lentil", "lilac", "lily",
	"linen", "lizard", "llama", "lobster", "locket", "lotus", "lumber",
	"lynx", "magnet", "mango", "maple", "marble", "meadow", "melon",
	"mint", "mitten", "moose", "moss", "muffin", "nectar", "needle",
	"nickel", "nutmeg", "oak", "oasis", "ocean", "olive", "onion",
	"orbit", "orchid", "otter", "owl", "paddle", "panda", "pansy",
	"parrot", "pasta", "peach", "pebble", "pecan", "pepper", "petal",
	"piano", "pickle", "pigeon", "pine", "plum", "pond", "poppy",
	"puffin", "pumpkin", "quail", "quartz", "quill", "rabbit", "radish",
	"raft", "raven", "reed", "ribbon", "ridge", "river", "robin",
	"rocket", "rose", "ruby", "saddle", "sage", "salmon", "sandal",
	"satin", "scarf", "shell", "shovel", "silver", "sleet", "slate",
	"sparrow", "spruce", "squash", "stone", "straw", "summit", "swan",
	"tango", "thistle", "thunder", "tiger", "timber", "toast", "tomato",
	"topaz", "torch", "trout", "tulip", "tunnel", "turnip", "turtle",
	"velvet", "violet", "walnut", "walrus", "willow", "window", "wren",
	"yarrow", "yeti", "zebra", "zephyr",
}

// SeatWordPattern is what SplitSeatWord takes for a seat word: never a
// room code or invite, which have no dash followed by two or three
// digits at their end after letters only.
var SeatWordPattern = regexp.MustCompile(`^[a-z]{2,8}-[0-9]{2,3}$`)

// newSeatWord draws a seat word.
func newSeatWord() string {
	n, err := rand.Int(rand.Reader, big.NewInt(int64(len(seatWords)*990)))
	if err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	i := int(n.Int64())
	return fmt.Sprintf("%s-%d", seatWords[i%len(seatWords)], 10+i/len(seatWords))
}

// SplitSeatWord parses what a guest typed to come back to their seat:
// "K7PXMA maple-42" is the invite K7PXMA and the seat word maple-42. Text
// without a seat word at its end comes back whole, with word "".
func SplitSeatWord(typed string) (invite, word string) {
	f := strings.Fields(typed)
	if len(f) < 2 {
		return typed, ""
	}
	last := strings.ToLower(f[len(f)-1])
	if !SeatWordPattern.MatchString(last) {
		return typed, ""
	}
	return strings.Join(f[:len(f)-1], " "), last
}

// ErrNoSeatForWord is what a seat word that opens nothing is told, in a
// public room, whatever was wrong.
func ErrNoSeatForWord(code string, grace string) error {
	return Refuse(fmt.Sprintf("no seat in room %s takes that seat word from here: a seat word works from the address you played from, for %s after you left", code, grace),
		"lobby.noSeatForWord", engine.Str("Code", code), engine.Str("Grace", grace))
}

// admitWord is the room's metadata as a lookup by p with word is to
// judge it: with p as the player of the seat word opens, if any; as it is
// when p needs no word (their own room) or brought none.
func (r held) admitWord(word string, p Player) store.Meta {
	m := r.meta
	if word == "" || m.SeatOf(p.ID) >= 0 || p.ID != "" && p.ID == m.Host {
		return m
	}
	if seat := r.wordSeat(word, p); seat >= 0 {
		m.Seats = slices.Clone(m.Seats)
		m.Seats[seat].Player = p.ID // admitted as the seat's own player
	}
	return m
}

// fromDigest is what a seat keeps of the address its guest sat down from:
// enough to know the address again, without keeping it in the clear with
// the room for as long as the room is kept.
func fromDigest(code, addr string) string {
	if addr == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(code + "|" + addr))
	return hex.EncodeToString(sum[:12])
}

// ShortDuration words d as `new` takes it: 2m, 90s, 1h30m.
func ShortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
