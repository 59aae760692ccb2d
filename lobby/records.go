package lobby

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/smokestack/smokestack/engine"
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

// recordRetry is how long a room waits to try recording again after the
// store failed.
const recordRetry = 30 * time.Second

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

// counts reports whether m's game reached its natural end with a result
// for every seat in a room whose seed nobody chose, so it may count in
// its players' records.
func counts(m store.Meta) bool {
	return m.Over && m.Result != nil && m.Ended == "" && len(m.Result.Ranks) == len(m.Seats) && !m.Practice
}

func isGuest(id string) bool { return strings.HasPrefix(id, "guest:") }

// recordRoom records the finished room m once and returns its outcome;
// nil for a room that counts nowhere.
func (l *Lobby) recordRoom(ctx context.Context, m store.Meta) (*store.Outcome, error) {
	rs := l.cfg.Store
	if !counts(m) {
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
		o, err := l.outcomeOf(ctx, rs, m)
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
		l.cfg.Logger.Info("game recorded", "code", m.Code, "rated", len(kept.Rated), "solo", kept.Solo != nil)
		return &kept, nil
	}
	return nil, store.ErrConflict
}

// outcomeOf works out what the finished room m does to its players'
// records, from their ratings now; nil when it counts nowhere.
func (l *Lobby) outcomeOf(ctx context.Context, rs store.Ratings, m store.Meta) (*store.Outcome, error) {
	o := &store.Outcome{Code: m.Code, Game: m.Game, At: m.Updated}
	var seats []int
	var players []string
	for i, s := range m.Seats {
		if s.Player != "" && !isGuest(s.Player) {
			seats, players = append(seats, i), append(players, s.Player)
		}
	}
	if g, ok := l.games[m.Game]; ok && len(m.Seats) == 1 && len(seats) == 1 && g.SoloOpponent != nil {
		opts, err := engine.ReadOptions(g.Rules.Options(), 1, m.Options)
		if err != nil {
			return nil, nil
		}
		o.Solo = &store.SoloResult{Player: players[0], Won: m.Result.Won(0), Score: m.Result.Scores[0],
			Record: store.SoloRecord{Game: m.Game, Opponent: g.SoloOpponent(opts)}}
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

// seatRatings words an outcome's rating changes for the room's seats.
func seatRatings(o *store.Outcome, seats []store.Seat) []SeatRating {
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

// toRecord reports whether the room's game is over and counts in its
// players' records, so an outcome will follow. The caller holds r.mu.
func (r *room) toRecord() bool {
	m := r.meta
	if !counts(m) {
		return false
	}
	people := 0
	for _, s := range m.Seats {
		if s.Player != "" && !isGuest(s.Player) {
			people++
		}
	}
	return people >= 2 || people == 1 && len(m.Seats) == 1 && r.game.SoloOpponent != nil
}

// recordLater records the room in the background once its game is over,
// and then pushes the rating changes to its sessions. The caller holds
// r.mu; the store is written outside it.
func (r *room) recordLater() {
	if r.recording || r.recorded || !r.toRecord() {
		return
	}
	r.recording = true
	meta := r.meta
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		o, err := r.l.recordRoom(ctx, meta)
		r.mu.Lock()
		defer r.mu.Unlock()
		r.recording = false
		if err != nil {
			r.l.storeFault("record game", err, "code", meta.Code)
			time.AfterFunc(recordRetry, func() {
				r.mu.Lock()
				defer r.mu.Unlock()
				r.recordLater()
			})
			return
		}
		r.recorded, r.outcome = true, o
		r.broadcast()
	}()
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

// Top is the leaderboard of game ("" is the default game), best first, as
// viewer sees it.
func (l *Lobby) Top(ctx context.Context, game string, viewer Player) ([]Standing, error) {
	g, ok := l.Game(game)
	if !ok {
		return nil, errors.New("this server has no game " + game)
	}
	rs, ps := l.cfg.Store, l.cfg.Store
	board, err := rs.Leaderboard(ctx, g.Name())
	if err != nil {
		return nil, l.unavailable("read the leaderboard", err)
	}
	out := make([]Standing, 0, len(board))
	for id, r := range board {
		p, err := ps.Profile(ctx, id)
		if errors.Is(err, store.ErrNoProfile) {
			continue // a profile that was linked away
		}
		if err != nil {
			return nil, l.unavailable("read profile "+id, err)
		}
		out = append(out, Standing{Name: p.Name, Rating: r.Ordinal(), Mu: r.Mu, Sigma: r.Sigma, Games: r.Games,
			You: id == viewer.ID && !viewer.Guest})
	}
	slices.SortFunc(out, func(a, b Standing) int {
		return cmp.Or(cmp.Compare(b.Rating, a.Rating), cmp.Compare(b.Games, a.Games), strings.Compare(a.Name, b.Name))
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out, nil
}

// YourMove reports whether the room waits on player's move.
func (i RoomInfo) YourMove(player string) bool {
	seat := i.SeatOf(player)
	return seat >= 0 && i.Started && !i.Over && slices.Contains(i.Acting, seat)
}

// Mine lists the rooms waiting on player's move, most recently played
// first.
func (l *Lobby) Mine(ctx context.Context, player Player) ([]RoomInfo, error) {
	rooms, err := l.History(ctx, player.ID)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(rooms, func(r RoomInfo) bool { return !r.YourMove(player.ID) }), nil
}
