package lobby

import (
	"context"
	"errors"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/players"
	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
)

// PlayerProfile returns what `profile` shows of the player called name,
// or of the viewer when name is empty: their record from the rooms they
// sat in (players.Summarize).
func (who *identity) PlayerProfile(ctx context.Context, viewer Player, name string) (players.Summary, error) {
	if name == "" && viewer.Guest {
		return players.Summary{}, errGuestProfile
	}
	prof, err := who.players.Profile(ctx, viewer.ID, name)
	if name == "" && errors.Is(err, store.ErrNoProfile) {
		// A new key, whose profile is made when it first sits down
		// (ensureProfile): nothing played yet.
		return players.Summary{Name: viewer.Name, Recent: []players.RecentGame{}, ByGame: []players.GameStats{}}, nil
	}
	if errors.Is(err, store.ErrNoProfile) {
		return players.Summary{}, room.Refuse("nobody here is called "+name, "lobby.nobodyCalled", engine.Str("Name", name))
	}
	if err != nil {
		return players.Summary{}, err
	}
	rooms, err := who.history(ctx, prof.ID)
	if err != nil {
		return players.Summary{}, err
	}
	played := make([]players.Played, len(rooms))
	for i, r := range rooms {
		played[i] = players.Played{Code: r.Code, Game: r.Game, Public: r.Public, Seats: len(r.Seats), Seat: r.SeatOf(prof.ID),
			Over: r.Over, Ended: r.Ended, Practice: r.Practice, Result: r.Result, Updated: r.Updated}
	}
	return who.players.Summarize(ctx, prof, prof.ID == viewer.ID && !viewer.Guest, played, who.offeredGames)
}
