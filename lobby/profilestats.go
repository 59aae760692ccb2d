package lobby

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// PlayerProfile is what `profile` shows of a player: their record, worked
// out from the finished games they sat in, and their ratings.
type PlayerProfile struct {
	Name  string    `json:"name"`
	Since time.Time `json:"since"`
	// Keys counts the keys that play as this profile: shown to its
	// player only.
	Keys int `json:"keys,omitempty"`
	// Games and Wins count finished games, solo ones too.
	Games  int         `json:"games"`
	Wins   int         `json:"wins"`
	ByGame []GameStats `json:"byGame"`
	// Recent are the latest finished games, newest first: to others,
	// only public rooms.
	Recent []RecentGame `json:"recent"`
}

// GameStats is a player's record in one game.
type GameStats struct {
	Game         string  `json:"game"`
	Games        int     `json:"games"`
	Wins         int     `json:"wins"`
	AverageScore float64 `json:"averageScore"`
	// Favourites are the cards the player ended games with most often.
	Favourites []CardCount        `json:"favourites,omitempty"`
	Rating     *store.Rating      `json:"rating,omitempty"`
	Ordinal    float64            `json:"ordinal,omitempty"`
	Solo       []store.SoloRecord `json:"solo,omitempty"`
	cards      map[string]int
	scoreSum   int
}

// CardCount is a card and in how many of a player's games they ended with
// it.
type CardCount struct {
	Card  string `json:"card"`
	Games int    `json:"games"`
}

// RecentGame is one finished game in a profile: its code replays it.
type RecentGame struct {
	Code  string    `json:"code"`
	Game  string    `json:"game"`
	Ended time.Time `json:"ended"`
	Seats int       `json:"seats"`
	Place int       `json:"place"`
	Score int       `json:"score"`
	Won   bool      `json:"won"`
}

// Profile limits.
const (
	recentGames = 8
	favourites  = 5
)

// PlayerProfile returns the profile of the player called name, or the
// viewer's own when name is empty.
func (l *Lobby) PlayerProfile(ctx context.Context, viewer Player, name string) (PlayerProfile, error) {
	if name == "" && viewer.Guest {
		return PlayerProfile{}, errGuestProfile
	}
	prof, err := l.players.Profile(ctx, viewer.ID, name)
	if name == "" && errors.Is(err, store.ErrNoProfile) {
		// A new key, whose profile is made when it first sits down
		// (ensureProfile): nothing played yet.
		return PlayerProfile{Name: viewer.Name, Recent: []RecentGame{}, ByGame: []GameStats{}}, nil
	}
	if errors.Is(err, store.ErrNoProfile) {
		return PlayerProfile{}, errors.New("nobody here is called " + name)
	}
	if err != nil {
		return PlayerProfile{}, err
	}
	own := prof.ID == viewer.ID && !viewer.Guest
	out := PlayerProfile{Name: prof.Name, Since: prof.Created, Recent: []RecentGame{}, ByGame: []GameStats{}}
	if own {
		out.Keys = len(prof.Keys)
	}
	rooms, err := l.History(ctx, prof.ID)
	if err != nil {
		return PlayerProfile{}, err
	}
	byGame := map[string]*GameStats{}
	for _, r := range rooms { // most recent first
		seat := r.SeatOf(prof.ID)
		res := r.Result
		if !r.Over || res == nil || r.Ended != "" || r.Practice || seat < 0 || seat >= len(res.Scores) {
			continue // practice games count nowhere (Meta.Practice)
		}
		gs := byGame[r.Game]
		if gs == nil {
			gs = &GameStats{Game: r.Game, cards: map[string]int{}}
			byGame[r.Game] = gs
		}
		won := res.Won(seat)
		gs.Games++
		gs.scoreSum += res.Scores[seat]
		out.Games++
		if won {
			gs.Wins++
			out.Wins++
		}
		if seat < len(res.Holdings) {
			seen := map[string]bool{}
			for _, c := range res.Holdings[seat] {
				if !seen[c] {
					seen[c] = true
					gs.cards[c]++
				}
			}
		}
		if len(out.Recent) < recentGames && (own || r.Public) {
			out.Recent = append(out.Recent, RecentGame{Code: r.Code, Game: r.Game, Ended: r.Updated, Seats: len(r.Seats),
				Place: res.Ranks[seat], Score: res.Scores[seat], Won: won})
		}
	}
	if err := l.addRecords(ctx, prof.ID, byGame); err != nil {
		return PlayerProfile{}, err
	}
	for _, g := range l.cfg.Games { // in the server's order of games
		if gs := byGame[g.Name()]; gs != nil {
			out.ByGame = append(out.ByGame, gs.finish())
		}
	}
	return out, nil
}

// addRecords adds the player's ratings and solo records to their games.
func (l *Lobby) addRecords(ctx context.Context, player string, byGame map[string]*GameStats) error {
	rs := l.cfg.Store
	solos, err := rs.SoloRecords(ctx, player)
	if err != nil {
		return l.unavailable("read solo records", err)
	}
	for _, s := range solos {
		if gs := byGame[s.Game]; gs != nil {
			gs.Solo = append(gs.Solo, s)
		}
	}
	for game, gs := range byGame {
		ratings, err := rs.Ratings(ctx, game, []string{player})
		if err != nil {
			return l.unavailable("read ratings", err)
		}
		if r, ok := ratings[player]; ok {
			gs.Rating, gs.Ordinal = &r, r.Ordinal()
		}
	}
	return nil
}

// finish works out the averages and favourites.
func (gs *GameStats) finish() GameStats {
	if gs.Games > 0 {
		gs.AverageScore = float64(gs.scoreSum) / float64(gs.Games)
	}
	for c, n := range gs.cards {
		gs.Favourites = append(gs.Favourites, CardCount{Card: c, Games: n})
	}
	slices.SortFunc(gs.Favourites, func(a, b CardCount) int {
		return cmp.Or(cmp.Compare(b.Games, a.Games), strings.Compare(a.Card, b.Card))
	})
	if len(gs.Favourites) > favourites {
		gs.Favourites = gs.Favourites[:favourites]
	}
	return *gs
}
