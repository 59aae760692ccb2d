package players

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// Summary is what `profile` shows of a player: their record, worked
// out from the finished games they sat in, and their ratings.
type Summary struct {
	Name  string    `json:"name"`
	Since time.Time `json:"since"`
	// Keys counts the keys that play as this profile: shown to its
	// player only.
	Keys int `json:"keys,omitempty"`
	// Lang is the language the player chose ("pl"): shown to its player
	// only, "" when they chose none.
	Lang string `json:"lang,omitempty"`
	// Plain is set when the player chose the line mode: shown to its
	// player only.
	Plain bool `json:"plain,omitempty"`
	// Games and Wins count finished games, solo ones too.
	Games  int         `json:"games"`
	Wins   int         `json:"wins"`
	ByGame []GameStats `json:"byGame"`
	// Recent are the latest finished games, newest first: to others,
	// only public rooms.
	Recent []RecentGame `json:"recent"`
}

// GameStats is a player's record in one game. Games, Wins and
// AverageScore count the games played against other seats; a solo game,
// played against the game's own opponent, counts in Solo alone, so the
// two kinds of score never blur into one average.
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

// Played is a room a player sat in, as their summary counts it.
type Played struct {
	Code, Game string
	Public     bool
	// Seats is how many seats the room has; Seat is the player's.
	Seats, Seat int
	// Over, Ended and Practice say whether the game counts (Counts):
	// over at its natural end, in a room whose seed nobody chose.
	Over     bool
	Ended    string
	Practice bool
	Result   *engine.Result
	// Updated is when its last move was stored: when it ended.
	Updated time.Time
}

// Summarize works out what `profile` shows of prof from the rooms they
// sat in, most recent first: to the player themself (own) their keys and
// every game, to others only public rooms among the recent ones. games
// orders the games' records, as the server lists its games.
func (ps *Players) Summarize(ctx context.Context, prof store.Profile, own bool, rooms []Played, games []string) (Summary, error) {
	out := Summary{Name: prof.Name, Since: prof.Created, Recent: []RecentGame{}, ByGame: []GameStats{}}
	if own {
		out.Keys, out.Lang, out.Plain = len(prof.Keys), prof.Lang, prof.Plain
	}
	byGame := map[string]*GameStats{}
	for _, r := range rooms { // most recent first
		seat := r.Seat
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
		out.Games++
		if won {
			out.Wins++
		}
		if r.Seats > 1 {
			gs.Games++
			gs.scoreSum += res.Scores[seat]
			if won {
				gs.Wins++
			}
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
			out.Recent = append(out.Recent, RecentGame{Code: r.Code, Game: r.Game, Ended: r.Updated, Seats: r.Seats,
				Place: res.Ranks[seat], Score: res.Scores[seat], Won: won})
		}
	}
	if err := ps.addRecords(ctx, prof.ID, byGame); err != nil {
		return Summary{}, err
	}
	for _, g := range games { // in the server's order of games
		if gs := byGame[g]; gs != nil {
			out.ByGame = append(out.ByGame, gs.finish())
		}
	}
	return out, nil
}

// addRecords adds the player's ratings and solo records to their games.
func (ps *Players) addRecords(ctx context.Context, player string, byGame map[string]*GameStats) error {
	rs := ps.cfg.Store
	solos, err := rs.SoloRecords(ctx, player)
	if err != nil {
		return ps.cfg.Unavailable("read solo records", err)
	}
	for _, s := range solos {
		if gs := byGame[s.Game]; gs != nil {
			gs.Solo = append(gs.Solo, s)
		}
	}
	for game, gs := range byGame {
		ratings, err := rs.Ratings(ctx, game, []string{player})
		if err != nil {
			return ps.cfg.Unavailable("read ratings", err)
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
