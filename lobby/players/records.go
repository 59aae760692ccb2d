package players

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/smokestack/smokestack/internal/openskill"
	"github.com/smokestack/smokestack/lobby/store"
)

// A finished game between at least two people with keys moves their
// ratings in that game by Weng and Lin's Plackett-Luce update
// (internal/openskill), from the places the game gave them: bots and
// guests play but are not rated, a seat a bot finished for its player is
// rated as the player's, and ties share a place. A solo game against the
// game's own opponent is not rated: it counts in the player's record
// against that opponent at that level. A game ended early (by its host or
// an operator) counts nowhere, nor does a practice room's (Meta.Practice),
// whose chosen seed let anyone who knew it foresee the game.
//
// Each room is recorded once (store.Ratings.Record keeps its outcome by
// code): by the instance that stored its last move, or, should that one
// fail or die, by whichever instance next opens the room.

// ratingModel is openskill's with tau mu/300, as openskill.py now
// defaults to, so that a rating keeps following a player who improves
// instead of settling for good after a few dozen games.
var ratingModel = func() openskill.Model {
	m := openskill.Default()
	m.Tau = m.Mu / 300
	return m
}()

// RatingModel is the model ratings move by (above).
func RatingModel() openskill.Model { return ratingModel }

// SeatRating is one seat's rating after a rated game, as anyone may see it.
type SeatRating struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`
	// Rating is the ordinal after the game; Change is what the game did
	// to it.
	Rating float64 `json:"rating"`
	Change float64 `json:"change"`
	// Games counts the player's rated games in this game, this one too.
	Games int `json:"games"`
}

// Counts reports whether m's game reached its natural end with a result
// for every seat in a room whose seed nobody chose, so it may count in
// its players' records.
func Counts(m store.Meta) bool {
	return m.Over && m.Result != nil && m.Ended == "" && len(m.Result.Ranks) == len(m.Seats) && !m.Practice
}

// Record records the finished room m once and returns its outcome; nil
// for a room that counts nowhere. opponent names the game's own opponent
// of a solo game with the room's options ("The Machine (hard)"), or is
// empty when the game has none: its solo games count nowhere.
func (ps *Players) Record(ctx context.Context, m store.Meta, opponent string) (*store.Outcome, error) {
	rs := ps.cfg.Store
	if !Counts(m) {
		return nil, nil
	}
	kept, err := rs.Outcome(ctx, m.Code)
	if err == nil {
		return &kept, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	for range 5 {
		o, err := outcomeOf(ctx, rs, m, opponent)
		if o == nil || err != nil {
			return nil, err
		}
		kept, err := rs.Record(ctx, *o)
		if errors.Is(err, store.ErrConflict) {
			continue // another game of a player was recorded meanwhile
		}
		if err != nil {
			return nil, err
		}
		ps.cfg.Logger.Info("game recorded", "code", m.Code, "rated", len(kept.Rated), "solo", kept.Solo != nil)
		return &kept, nil
	}
	return nil, store.ErrConflict
}

// outcomeOf works out what the finished room m does to its players'
// records, from their ratings now; nil when it counts nowhere.
func outcomeOf(ctx context.Context, rs store.Ratings, m store.Meta, opponent string) (*store.Outcome, error) {
	o := &store.Outcome{Code: m.Code, Game: m.Game, At: m.Updated}
	var seats []int
	var players []string
	for i, s := range m.Seats {
		if s.Player != "" && !IsGuest(s.Player) {
			seats, players = append(seats, i), append(players, s.Player)
		}
	}
	if len(m.Seats) == 1 && len(seats) == 1 && opponent != "" {
		o.Solo = &store.SoloResult{Player: players[0], Won: m.Result.Won(0), Score: m.Result.Scores[0],
			Record: store.SoloRecord{Game: m.Game, Opponent: opponent}}
		return o, nil
	}
	if len(seats) < 2 {
		return nil, nil
	}
	now, err := rs.Ratings(ctx, m.Game, players)
	if err != nil {
		return nil, err
	}
	teams := make([][]openskill.Rating, len(seats))
	ranks := make([]int, len(seats))
	for i, seat := range seats {
		r, ok := now[players[i]]
		if !ok {
			r = store.Rating{Mu: ratingModel.Mu, Sigma: ratingModel.Sigma}
		}
		teams[i], ranks[i] = []openskill.Rating{{Mu: r.Mu, Sigma: r.Sigma}}, m.Result.Ranks[seat]
	}
	after := ratingModel.Rate(teams, ranks)
	for i, seat := range seats {
		before, ok := now[players[i]]
		if !ok {
			before = store.Rating{Mu: ratingModel.Mu, Sigma: ratingModel.Sigma}
		}
		a := after[i][0]
		o.Rated = append(o.Rated, store.RatingChange{Seat: seat, Player: players[i], Before: before,
			After: store.Rating{Mu: a.Mu, Sigma: a.Sigma, Games: before.Games + 1}})
	}
	return o, nil
}

// SeatRatings words an outcome's rating changes for the room's seats.
func SeatRatings(o *store.Outcome, seats []store.Seat) []SeatRating {
	if o == nil {
		return nil
	}
	var out []SeatRating
	for _, c := range o.Rated {
		name := ""
		if c.Seat < len(seats) {
			name = seats[c.Seat].Name
		}
		out = append(out, SeatRating{Seat: c.Seat, Name: name, Rating: c.After.Ordinal(),
			Change: c.After.Ordinal() - c.Before.Ordinal(), Games: c.After.Games})
	}
	return out
}

// Standing is a player's place on a game's leaderboard.
type Standing struct {
	Rank int    `json:"rank"`
	Name string `json:"name"`
	// Rating is the ordinal the board is ranked by.
	Rating float64 `json:"rating"`
	Mu     float64 `json:"mu"`
	Sigma  float64 `json:"sigma"`
	Games  int     `json:"games"`
	// You marks the viewer's own line.
	You bool `json:"you,omitempty"`
}

// Top is the n best of game's leaderboard, best first, as the player with
// ID viewer sees it ("" for a guest, who has no line of their own): the
// viewer's own line follows, with its place, when it is not among them.
func (ps *Players) Top(ctx context.Context, game, viewer string, n int) ([]Standing, error) {
	board, err := ps.cfg.Store.Leaderboard(ctx, game, n)
	if err != nil {
		return nil, ps.cfg.Unavailable("read the leaderboard", err)
	}
	if viewer != "" && !slices.ContainsFunc(board, func(r store.Ranked) bool { return r.Player == viewer }) {
		if mine, err := ps.cfg.Store.Ratings(ctx, game, []string{viewer}); err != nil {
			return nil, ps.cfg.Unavailable("read the viewer's rating", err)
		} else if r, ok := mine[viewer]; ok {
			board = append(board, store.Ranked{Player: viewer, Rating: r})
		}
	}
	out := make([]Standing, 0, len(board))
	for _, line := range board {
		p, err := ps.cfg.Store.Profile(ctx, line.Player)
		if errors.Is(err, store.ErrNoProfile) {
			continue // a profile that was linked away
		}
		if err != nil {
			return nil, ps.cfg.Unavailable("read profile "+line.Player, err)
		}
		r := line.Rating
		out = append(out, Standing{Name: p.Name, Rating: r.Ordinal(), Mu: r.Mu, Sigma: r.Sigma, Games: r.Games,
			You: viewer != "" && line.Player == viewer})
	}
	slices.SortFunc(out, func(a, b Standing) int {
		return cmp.Or(cmp.Compare(b.Rating, a.Rating), cmp.Compare(b.Games, a.Games), strings.Compare(a.Name, b.Name))
	})
	for i := range out {
		out[i].Rank = i + 1
		if out[i].You && i >= n {
			rank, err := ps.cfg.Store.Rank(ctx, game, viewer)
			if err != nil {
				return nil, ps.cfg.Unavailable("read the viewer's place", err)
			}
			out[i].Rank = max(rank, i+1)
		}
	}
	return out, nil
}
