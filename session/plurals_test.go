package session

import (
	"testing"

	"github.com/smokestack/smokestack/internal/lang"
)

// TestScreenPlurals: the screens' counts take their language's plural
// forms (CLDR: Polish and Russian 1 / 2–4 / 5+, and 21, 22, 25 as the
// rules say) for 1, 2, 5, 21, 22 and 25.
func TestScreenPlurals(t *testing.T) {
	for _, c := range []struct {
		tag  lang.Tag
		id   string
		want []string
	}{
		{lang.Polish, "session.list.seatsFree", []string{"1 wolne miejsce", "2 wolne miejsca", "5 wolnych miejsc",
			"21 wolnych miejsc", "22 wolne miejsca", "25 wolnych miejsc"}},
		{lang.Russian, "session.list.seatsFree", []string{"1 свободное место", "2 свободных места", "5 свободных мест",
			"21 свободное место", "22 свободных места", "25 свободных мест"}},
		{lang.Polish, "session.chat.unread", []string{"1 nowa wiadomość na czacie (t)", "2 nowe wiadomości na czacie (t)",
			"5 nowych wiadomości na czacie (t)", "21 nowych wiadomości na czacie (t)", "22 nowe wiadomości na czacie (t)",
			"25 nowych wiadomości na czacie (t)"}},
		{lang.Russian, "session.records.wins", []string{"1 победа", "2 победы", "5 побед", "21 победа", "22 победы", "25 побед"}},
		{lang.Portuguese, "session.room.seats", []string{"1 lugar", "2 lugares", "5 lugares", "21 lugares", "22 lugares", "25 lugares"}},
		{lang.English, "session.room.seats", []string{"1 seat", "2 seats", "5 seats", "21 seats", "22 seats", "25 seats"}},
	} {
		for i, n := range []int{1, 2, 5, 21, 22, 25} {
			if got := lang.For(c.tag).N(c.id, n); got != c.want[i] {
				t.Errorf("%s: %s for %d = %q, want %q", c.tag, c.id, n, got, c.want[i])
			}
		}
	}
}
