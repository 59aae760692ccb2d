package lang

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestWordsInTheirLanguage words what players read wrong before (issue
// 38), each as its language writes it: counts in the form their number
// takes, zero in Portuguese with the plural, and the slips.
func TestWordsInTheirLanguage(t *testing.T) {
	for _, c := range []struct {
		tag  Tag
		got  string
		want string
	}{
		{Portuguese, For(Portuguese).N("cmd.profile.finished", 0), "0 partidas terminadas"},
		{Portuguese, For(Portuguese).N("cmd.profile.wins", 0), "0 vitórias"},
		{Portuguese, For(Portuguese).N("cmd.profile.wins", 1), "1 vitória"},
		{Portuguese, For(Portuguese).N("factories.more", 1), "+1 outra (i)"},
		{Russian, For(Russian).N("factories.log.n.energy", 1), "1 энергию"},
		{Russian, For(Russian).T("factories.cost.both", "Metal", For(Russian).N("factories.cost.metal", 1),
			"Energy", For(Russian).N("factories.cost.energy", 1)), "1 металл 1 энергия"},
		{Polish, For(Polish).N("factories.log.drewcards", 1, "You", "yes", "Cards", "Laboratorium", "Why", "Laboratorium"),
			"dobierasz kartę: Laboratorium (Laboratorium)"},
		{Russian, For(Russian).N("factories.log.drewcards", 1, "Cards", "Лаборатория", "Why", "x"), "берёт карту: Лаборатория (x)"},
		{Portuguese, For(Portuguese).T("factories.log.turned", "From", "2", "To", "1"), "mudou um dado de 2 para 1"},
		{Russian, For(Russian).T("session.away.short", "Name", "Edward", "Away", For(Russian).Duration(5*60e9)), "Edward нет уже 5 мин"},
		{Portuguese, For(Portuguese).Duration(2 * 60e9), "2 min"},
		{Portuguese, For(Portuguese).T("session.scores.wins", "Name", "João"), "João vence!"},
		{Russian, For(Russian).Signed(3, 1), "+3,0"},
		{Portuguese, For(Portuguese).Or("games.factories.opponent.The Machine (hard)", ""), "a Máquina (difícil)"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %q; want %q", c.tag, c.got, c.want)
		}
	}
	pl := catalogue(t, Polish)
	for id, slip := range map[string]string{"factories.rules.building.text": "Budynek można", "factories.rules.goal.text": "Wygrywa najwięcej",
		"furnace.scores.ties": "Wygrywa najwięcej"} {
		if strings.Contains(pl[id]["other"], slip) {
			t.Errorf("pl: %s still says %q", id, slip)
		}
	}
}

// gameWord is a form of the word "game" a title may follow in Polish and
// Russian ("w grze Fantastyczne Fabryki", "в игре «Индустрия»"), or what
// sets a title apart: the start, a colon, a comma, a bracket, quotes, or
// the flag that takes a game's name.
var gameWord = regexp.MustCompile(`(^|[:(,«] ?|--game |(^|\s)(gra|gry|grze|grę|grą|gier|игра|игры|игре|игру|игрой|игр) )$`)

// TestGameTitlesStandAlone: Polish and Russian decline nouns, and a
// game's title is a name in the nominative; spliced after a preposition
// or a noun ("w Fantastyczne Fabryki", "В Индустрия") it reads wrong, so
// a title follows the word "game" in its case, or stands apart.
func TestGameTitlesStandAlone(t *testing.T) {
	title := regexp.MustCompile(`{{\.(Title|Game)}}`)
	for _, tag := range []Tag{Polish, Russian} {
		cat := catalogue(t, tag)
		for _, id := range slices.Sorted(maps.Keys(cat)) {
			for _, s := range cat[id] {
				for _, at := range title.FindAllStringIndex(s, -1) {
					if !gameWord.MatchString(s[:at[0]]) {
						t.Errorf("%s: %s splices a game's title after %q: %q", tag, id, s[max(0, at[0]-12):at[0]], s)
					}
				}
			}
		}
	}
}

// TestEditionWordsInRunningText: a name the edition prints one way on the
// card reads as the edition's running text has it in a sentence. The
// Portuguese edition writes "a Máquina" mid-sentence (its article
// capitalised only at a sentence's start); the Russian rulebook names the
// Obelisk "Обелиск" in its text, though the card prints "Obelisk".
func TestEditionWordsInRunningText(t *testing.T) {
	midSentence := regexp.MustCompile(`[\p{Ll},)] A Máquina`)
	for id, forms := range catalogue(t, Portuguese) {
		for _, s := range forms {
			if m := midSentence.FindString(s); m != "" {
				t.Errorf("pt: %s writes %q mid-sentence: %q", id, m, s)
			}
		}
	}
	for id, forms := range catalogue(t, Russian) {
		for _, s := range forms {
			if strings.Contains(s, "Obelisk") && id != "factories.card.Obelisk" {
				t.Errorf("ru: %s names the Obelisk as the card prints it, in a sentence: %q", id, s)
			}
		}
	}
}

// TestOneWordForAMove: a language names a player's move with one word,
// the glossary's (docs/translating.md). Portuguese menus said "jogada"
// while the keys page and the hints said "lance", which Furnace's
// catalogue keeps for a bid; and Brazilian Portuguese says "aperte", not
// Portugal's "prima".
func TestOneWordForAMove(t *testing.T) {
	none := regexp.MustCompile(`^$`)
	for _, c := range []struct {
		tag          Tag
		avoid, allow *regexp.Regexp // allow: the phrases avoid may be in
		use          string
	}{
		// "dar lance": to bid, in Furnace's auction.
		{Portuguese, regexp.MustCompile(`(?i)\blances?\b`), regexp.MustCompile(`(?i)\b(dar|dá|dê|deu|deram|der)\s+(o\s+)?lances?\b`), "jogada"},
		{Portuguese, regexp.MustCompile(`(?i)\bprima\b`), none, "aperte"},
	} {
		for id, forms := range catalogue(t, c.tag) {
			for _, text := range forms {
				if c.avoid.MatchString(c.allow.ReplaceAllString(text, "")) {
					t.Errorf("%s %s: %q; the glossary's word is %q", c.tag, id, text, c.use)
				}
			}
		}
	}
}
