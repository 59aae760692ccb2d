package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/smokestack/smokestack/internal/openskill"
)

// Rating is a player's rating in one game (lobby/players/records.go says how it moves).
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
	// Games counts the rated games behind it; the store also compares
	// it to see that nobody rated the player meanwhile.
	Games int `json:"games"`
}

// Ordinal is the rating shown and ranked by: mu - 3 sigma, the skill the
// player has with about 99.7% confidence (0 for a newcomer).
func (r Rating) Ordinal() float64 { return openskill.Rating{Mu: r.Mu, Sigma: r.Sigma}.Ordinal() }

// Outcome is what one finished room did to its players' records. It is
// kept once per room code, which makes recording a game idempotent: a
// retry, or another instance recording the same room, finds it there.
type Outcome struct {
	Code string    `json:"code"`
	Game string    `json:"game"`
	At   time.Time `json:"at"`
	// Rated are the rating changes of a game between people.
	Rated []RatingChange `json:"rated,omitempty"`
	// Solo is a solo game against the game's own opponent.
	Solo *SoloResult `json:"solo,omitempty"`
}

// RatingChange is one seat's rating before and after a game.
type RatingChange struct {
	Seat   int    `json:"seat"`
	Player string `json:"player"`
	Before Rating `json:"before"`
	After  Rating `json:"after"`
}

// SoloResult is a solo game's result for its player's record.
type SoloResult struct {
	Player string `json:"player"`
	Won    bool   `json:"won"`
	Score  int    `json:"score"`
	// Record is the player's record against this opponent after the
	// game, as the store kept it.
	Record SoloRecord `json:"record"`
}

// After is the player's record in game after r, given the record
// before it (found false: none, and this game is the first).
func (r SoloResult) After(game string, before SoloRecord, found bool) SoloRecord {
	if !found {
		before = SoloRecord{Game: game, Opponent: r.Record.Opponent, Best: r.Score}
	}
	if r.Won {
		before.Wins++
	} else {
		before.Losses++
	}
	before.Best = max(before.Best, r.Score)
	return before
}

// SoloRecord is a player's record against a game's own opponent at one
// level ("The Machine (hard)"), apart from ratings.
type SoloRecord struct {
	Game     string `json:"game"`
	Opponent string `json:"opponent"`
	Wins     int    `json:"wins"`
	Losses   int    `json:"losses"`
	Best     int    `json:"best"`
}

// Ratings keeps ratings, solo records and the outcome of every
// recorded room. Every driver implements it; with Redis every instance
// sees the same ratings.
type Ratings interface {
	// Ratings returns the ratings of players in game; a player without
	// one is missing from the map.
	Ratings(ctx context.Context, game string, players []string) (map[string]Rating, error)
	// Record keeps o, once per room: if an outcome of o.Code is kept
	// already it returns that and changes nothing. Otherwise it sets each
	// rated player's rating in o.Game to After, if it still is Before (a
	// player without one counts 0 games): ErrConflict if not; adds
	// o.Solo to its player's record (filling in Record); and keeps o.
	Record(ctx context.Context, o Outcome) (Outcome, error)
	// Outcome returns the kept outcome of room code; ErrNotFound if none.
	Outcome(ctx context.Context, code string) (Outcome, error)
	// Leaderboard returns the n best players in game, best first: by
	// Ordinal, then by player ID. n below 1 reads none.
	Leaderboard(ctx context.Context, game string, n int) ([]Ranked, error)
	// Rank returns player's place in game's leaderboard: one more than
	// the players whose Ordinal is higher; 0 when player has no rating
	// in game.
	Rank(ctx context.Context, game, player string) (int, error)
	// SoloRecords returns player's solo records.
	SoloRecords(ctx context.Context, player string) ([]SoloRecord, error)
}

// Ranked is a player's line on a game's leaderboard.
type Ranked struct {
	Player string `json:"player"`
	Rating Rating `json:"rating"`
}

// Top returns the n best of board, as Ratings.Leaderboard orders them,
// for drivers that read a game's whole board.
func Top(board map[string]Rating, n int) []Ranked {
	out := make([]Ranked, 0, len(board))
	for p, r := range board {
		out = append(out, Ranked{Player: p, Rating: r})
	}
	SortRanked(out)
	return out[:min(max(n, 0), len(out))]
}

// SortRanked orders a leaderboard's lines as Ratings.Leaderboard does.
func SortRanked(lines []Ranked) {
	slices.SortFunc(lines, func(a, b Ranked) int {
		return cmp.Or(cmp.Compare(b.Rating.Ordinal(), a.Rating.Ordinal()), strings.Compare(a.Player, b.Player))
	})
}

// RankIn returns player's place in board, as Ratings.Rank does.
func RankIn(board map[string]Rating, player string) int {
	mine, ok := board[player]
	if !ok {
		return 0
	}
	rank := 1
	for _, r := range board {
		if r.Ordinal() > mine.Ordinal() {
			rank++
		}
	}
	return rank
}

// RatingTx is the records as plain data, as a driver changes them in one
// locked step or transaction: RecordOutcome applies the rules every driver
// shares to it.
type RatingTx interface {
	Outcome(code string) (Outcome, bool)
	Rating(game, player string) (Rating, bool)
	Solo(player, game, opponent string) (SoloRecord, bool)
	PutOutcome(o Outcome)
	PutRating(game, player string, r Rating)
	PutSolo(player string, r SoloRecord)
}

// RecordOutcome applies Ratings.Record to s.
func RecordOutcome(s RatingTx, o Outcome) (Outcome, error) {
	if kept, ok := s.Outcome(o.Code); ok {
		return kept, nil
	}
	for _, c := range o.Rated {
		if now, _ := s.Rating(o.Game, c.Player); now.Games != c.Before.Games {
			return Outcome{}, fmt.Errorf("rating of %s: %w", c.Player, ErrConflict)
		}
	}
	for _, c := range o.Rated {
		s.PutRating(o.Game, c.Player, c.After)
	}
	if o.Solo != nil {
		solo := *o.Solo
		rec, ok := s.Solo(solo.Player, o.Game, solo.Record.Opponent)
		solo.Record = solo.After(o.Game, rec, ok)
		s.PutSolo(solo.Player, solo.Record)
		o.Solo = &solo
	}
	s.PutOutcome(o)
	return o, nil
}

// SoloKey is the key of player's record against opponent in game, for
// drivers that keep records in one flat table.
func SoloKey(player, game, opponent string) string { return player + "\x00" + game + "\x00" + opponent }

// RatingKey is the key of player's rating in game, for drivers that keep
// ratings in one flat table: a game's ratings share its prefix.
func RatingKey(game, player string) string { return game + "\x00" + player }

// SortSolo orders records by game, then opponent.
func SortSolo(recs []SoloRecord) []SoloRecord {
	slices.SortFunc(recs, func(a, b SoloRecord) int {
		return strings.Compare(a.Game+"\x00"+a.Opponent, b.Game+"\x00"+b.Opponent)
	})
	return recs
}
