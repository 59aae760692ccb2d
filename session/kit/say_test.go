package kit

import (
	"fmt"
	"testing"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/lang"
)

func TestSayWordsInTheReadersLanguage(t *testing.T) {
	w := engine.Say("lang.players", engine.Num("N", 22))
	for tag, want := range map[lang.Tag]string{lang.English: "22 players", lang.Polish: "22 gracze", lang.Russian: "22 игрока"} {
		if got := Say(NewTheme("mono", nil).In(lang.For(tag)), "factories", w); got != want {
			t.Errorf("%s: Say = %q; want %q", tag, got, want)
		}
	}
	// A theme without a language words English.
	if got := Say(NewTheme("mono", nil), "factories", w); got != "22 players" {
		t.Errorf("no language: Say = %q", got)
	}
}

func TestRefusalWordsARefusalAndPassesOtherErrors(t *testing.T) {
	th := NewTheme("mono", nil).In(lang.For(lang.Russian))
	err := fmt.Errorf("move: %w", engine.Refuse("5 players", engine.Say("lang.players", engine.Num("N", 5))))
	if got := Refusal(th, "factories", err); got != "5 игроков" {
		t.Errorf("Refusal = %q; want the Russian words", got)
	}
	if got := Refusal(th, "factories", fmt.Errorf("store down")); got != "store down" {
		t.Errorf("a plain error = %q; want its text", got)
	}
}
