package main

import (
	"context"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"sync/atomic"
	"time"
)

// Pacing. A room's players act one after another, so a redraw can be told
// apart (capacity.go); how often they act is the load. With --think a
// room waits a think time (±50%) after each action ends before the next
// one begins, as before: a slow action, or slow clients, slow the room
// down. With --rate the rooms act on a schedule instead, worked out so
// the server sees that many moves a minute a player: an action every
// interval (±50%), the interval from the share of actions that play a
// move so far (the actor is one who may act, turns.go, but an enter can
// still be refused, or the game be over). Either way the
// report says what was meant and what was played, and whether the
// players fell behind.

// pacer is the pacing all rooms share, and what they did.
type pacer struct {
	think time.Duration
	rate  float64 // moves a minute a player (--rate); 0: --think alone
	// actions and plays count every room's actions and those that
	// played a move, for the share of actions that play.
	actions, plays atomic.Int64
	// rebased counts the times a room fell a whole interval behind its
	// schedule and started it again from then (--rate).
	rebased atomic.Int64
}

// Before any action has played, the share of actions that play a move is
// taken to be playShare0, as if from playShareWeight actions: all of
// them, as the actors are those who may act; taken lower, the rooms'
// first intervals would be too short. Too low a share would make the
// interval too short, so it is taken at least minPlayShare.
const (
	playShare0      = 1
	playShareWeight = 8
	minPlayShare    = 0.05
)

// playShare is the share of actions that played a move, as far as known.
func playShare(actions, plays int64) float64 {
	f := (float64(plays) + playShare0*playShareWeight) / (float64(actions) + playShareWeight)
	return max(f, minPlayShare)
}

// actionInterval is how often a room of n players acts so that each
// plays rate moves a minute, when a share f of actions plays a move.
func actionInterval(rate float64, n int, f float64) time.Duration {
	return time.Duration(float64(time.Minute) * f / (rate * float64(n)))
}

// jitter is d ±50%, uniformly: d/2 to 3d/2.
func jitter(rnd *mrand.Rand, d time.Duration) time.Duration {
	return d/2 + time.Duration(rnd.Int64N(int64(d)+1))
}

// roomPace is one room's pacing.
type roomPace struct {
	p       *pacer
	players int
	rnd     *mrand.Rand // the room's own; with --rate a second one, so its keys stay those --think presses
	due     time.Time   // --rate: when the next action is due
	timer   *time.Timer // waits for the next action
}

func (p *pacer) room(players int, rnd *mrand.Rand, seed uint64) *roomPace {
	r := &roomPace{p: p, players: players, rnd: rnd}
	if p.rate > 0 {
		r.rnd = mrand.New(mrand.NewPCG(seed, 0x9ace))
	}
	return r
}

// wait is how long the room waits from now before its next action, and
// how late that action is against its schedule (--rate; never with
// --think, where the wait follows the last action whatever it took).
func (r *roomPace) wait(now time.Time) (wait, late time.Duration) {
	if r.p.rate == 0 {
		return jitter(r.rnd, r.p.think), 0
	}
	iv := actionInterval(r.p.rate, r.players, playShare(r.p.actions.Load(), r.p.plays.Load()))
	if r.due.IsZero() { // rooms start spread over an interval, not all at once
		r.due = now.Add(time.Duration(r.rnd.Int64N(int64(iv) + 1)))
	}
	late = max(now.Sub(r.due), 0)
	if late > iv {
		// A whole interval behind: the actions missed are not made up
		// in a burst; the schedule starts again from now.
		r.p.rebased.Add(1)
		r.due = now
	}
	wait = max(r.due.Sub(now), 0)
	r.due = r.due.Add(jitter(r.rnd, iv))
	return wait, late
}

// next waits for the room's next action, noting how late it comes
// (--rate); false when ctx ends first.
func (r *roomPace) next(ctx context.Context, rec *recorder) bool {
	if ctx.Err() != nil {
		return false
	}
	wait, late := r.wait(time.Now())
	if r.p.rate > 0 {
		rec.mu.Lock()
		rec.samples["late"] = append(rec.samples["late"], late)
		rec.mu.Unlock()
	}
	if r.timer == nil {
		r.timer = time.NewTimer(wait)
	} else {
		r.timer.Reset(wait)
	}
	select {
	case <-ctx.Done():
		return false
	case <-r.timer.C:
		return true
	}
}

// stop ends the room's pacing.
func (r *roomPace) stop() {
	if r.timer != nil {
		r.timer.Stop()
	}
}

// done counts an action, and whether it played a move.
func (r *roomPace) done(played bool) {
	r.p.actions.Add(1)
	if played {
		r.p.plays.Add(1)
	}
}

// paceReport is what the players meant to play and what they played.
type paceReport struct {
	// TargetMovesPerPlayerMinute is --rate; 0 with --think.
	TargetMovesPerPlayerMinute float64 `json:"target_moves_per_player_minute,omitempty"`
	// IntendedActionsPerRoomMinute is a room's actions a minute as
	// meant: one a think time with --think (as if an action took no
	// time), the schedule's with --rate; ActionsPerRoomMinute is what
	// the rooms made.
	IntendedActionsPerRoomMinute float64 `json:"intended_actions_per_room_minute"`
	ActionsPerRoomMinute         float64 `json:"actions_per_room_minute"`
	// MovesPerAction is the share of actions that played a move, by the
	// movers' own screens.
	MovesPerAction float64 `json:"moves_per_action"`
	// IntendedMovesPerPlayerMinute is the moves a minute a player the
	// pace meant, at that share; MovesPerPlayerMinute those played (the
	// server's count where it has one, else the clients').
	IntendedMovesPerPlayerMinute float64 `json:"intended_moves_per_player_minute"`
	MovesPerPlayerMinute         float64 `json:"moves_per_player_minute"`
	// Late is how late actions began against the schedule (--rate), and
	// Rebased the times a room fell a whole interval behind it.
	Late    stats `json:"late,omitempty"`
	Rebased int   `json:"rebased,omitempty"`
	// Behind says the players played less than behindShare of what was
	// meant: the load, not the server, then set the pace.
	Behind bool `json:"behind"`
}

// behindShare is the share of the moves meant below which the players
// are said to have fallen behind. With --think an action's own time
// (its keys' redraws, the waits for the frames: about 0.15 s at rest)
// comes on top of the think time, which costs a few percent.
const behindShare = 0.9

// pace sums up the pacing over a play of wall time in rooms rooms of
// players players in all; moves is the server's count of moves played
// (0 when unknown: the clients' own count is used).
func (p *pacer) pace(wall time.Duration, rooms, players, moves int, late []time.Duration) paceReport {
	var r paceReport
	mins := wall.Minutes()
	if rooms == 0 || players == 0 || mins <= 0 {
		return r
	}
	actions, plays := p.actions.Load(), p.plays.Load()
	r.MovesPerAction = roundHundredth(playShare(actions, plays))
	if actions > 0 {
		r.MovesPerAction = roundHundredth(float64(plays) / float64(actions))
	}
	perRoom := float64(players) / float64(rooms)
	if p.rate > 0 {
		r.TargetMovesPerPlayerMinute = p.rate
		r.IntendedMovesPerPlayerMinute = p.rate
		r.IntendedActionsPerRoomMinute = roundTenth(p.rate * perRoom / max(r.MovesPerAction, minPlayShare))
		r.Late = summarise(late)
		r.Rebased = int(p.rebased.Load())
	} else {
		r.IntendedActionsPerRoomMinute = roundTenth(time.Minute.Seconds() / p.think.Seconds())
		r.IntendedMovesPerPlayerMinute = roundTenth(r.IntendedActionsPerRoomMinute * r.MovesPerAction / perRoom)
	}
	r.ActionsPerRoomMinute = roundTenth(float64(actions) / float64(rooms) / mins)
	played := float64(moves)
	if moves == 0 {
		played = float64(plays)
	}
	r.MovesPerPlayerMinute = roundTenth(played / float64(players) / mins)
	r.Behind = r.MovesPerPlayerMinute < behindShare*r.IntendedMovesPerPlayerMinute
	return r
}

// write is the report's lines on the pace.
func (r paceReport) write(w io.Writer) {
	if r.IntendedActionsPerRoomMinute == 0 {
		return
	}
	asked := "think time"
	if r.TargetMovesPerPlayerMinute > 0 {
		asked = fmt.Sprintf("--rate %.1f", r.TargetMovesPerPlayerMinute)
	}
	fmt.Fprintf(w, "pace: meant %.1f moves a minute a player (%s: %.1f actions a room a minute, %.2f of them playing a move); played %.1f (%.1f actions a room a minute)",
		r.IntendedMovesPerPlayerMinute, asked, r.IntendedActionsPerRoomMinute, r.MovesPerAction, r.MovesPerPlayerMinute, r.ActionsPerRoomMinute)
	if r.TargetMovesPerPlayerMinute > 0 {
		fmt.Fprintf(w, "; actions late p50 %.1fms p99 %.1fms, rooms a whole interval behind %d times", r.Late.P50, r.Late.P99, r.Rebased)
	}
	fmt.Fprintln(w)
	if r.Behind {
		fmt.Fprintf(w, "BEHIND: the players played %.0f%% of the moves meant: the load, not the server, set the pace\n",
			100*r.MovesPerPlayerMinute/r.IntendedMovesPerPlayerMinute)
	}
}
