package lang

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestPseudo(t *testing.T) {
	p := For(Pseudo)
	if got, want := p.T("lang.name"), "⟦Éñĝľîšĥ⟧"; got != want {
		t.Errorf("Pseudo words lang.name %q; want %q", got, want)
	}
	if got, want := p.N("lang.players", 2), "⟦2 þľåýéŕš⟧"; got != want {
		t.Errorf("Pseudo words 2 players %q; want %q", got, want)
	}
	if got, want := p.T("cmd.unknown", "Name", "frob"), "⟦ûñķñöŵñ çöɱɱåñđ frob⟧"; got != want {
		t.Errorf("Pseudo keeps an argument as given: %q; want %q", got, want)
	}
	if p.Tag() != Pseudo || For(English).T("lang.name") != "English" {
		t.Error("Pseudo is not a printer of its own")
	}
	if _, ok := Parse(string(Pseudo)); ok && slices.Contains(Tags, Pseudo) {
		t.Error("a player can choose Pseudo")
	}
	if got := Unlocalized(p.T("session.lobby.overSSH", "Games", "K7QF2X and Furnace")); !slices.Equal(got, []string{"K7QF2X", "and", "Furnace"}) {
		t.Errorf("Unlocalized = %q", got)
	}
	if got := Unlocalized("⟦Ŵîñš⟧ 3 · 12:30 ⟦ĝö⟧"); len(got) != 0 {
		t.Errorf("Unlocalized finds %q in a worded line", got)
	}
}

// TestCountsArePlural is the check for counts: a message that takes a
// count ({{.N}}, the argument Printer.N and kit.Say pass it as) is a
// plural message in every language, so "1 energy", "2 energies" and
// Russian's "1 энергию", "5 энергий" each take their own form. Code that
// counts something passes the count as N.
func TestCountsArePlural(t *testing.T) {
	for _, tag := range Tags {
		cat := catalogue(t, tag)
		for _, id := range slices.Sorted(maps.Keys(cat)) {
			forms := cat[id]
			if _, plural := forms["one"]; plural {
				continue
			}
			if strings.Contains(forms["other"], "{{.N}}") {
				t.Errorf("%s: %q takes a count (N) but is no plural message: %q", tag, id, forms["other"])
			}
		}
	}
}
