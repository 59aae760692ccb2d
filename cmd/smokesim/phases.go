package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/tally"
	"github.com/smokestack/smokestack/lobby"
	redisstore "github.com/smokestack/smokestack/lobby/store/redis"
)

// runPhases runs the simulation's phases in order. Each phase's work is
// read from the primaries around it; a phase's own work is what it did
// above the rate of the phase it stands on (baseline: the instances
// alone; idle: everyone seated, nobody moving).
func (s *sim) runPhases(ctx context.Context) error {
	c := s.cfg
	s.dead = map[int]bool{}
	logf("starting %d instances (presence TTL %s)", c.instances, c.ttl)
	for i := range c.instances {
		in, err := startInstance(ctx, i, s.config())
		if err != nil {
			return fmt.Errorf("instance %d: %w", i, err)
		}
		s.inst = append(s.inst, in)
	}
	time.Sleep(3 * time.Second)

	if _, err := s.measure(ctx, "baseline", "instance-seconds", func() (int64, error) {
		time.Sleep(c.baseline)
		return int64(float64(c.instances) * c.baseline.Seconds()), nil
	}); err != nil {
		return err
	}
	if _, err := s.measure(ctx, "connect", "players", func() (int64, error) { return s.connect(ctx) }); err != nil {
		return err
	}
	// Let the connects' claims and catch-ups settle before idle is read.
	time.Sleep(c.ttl/3 + 2*time.Second)
	// Idle lasts whole renewal rounds from the start of a gap between
	// them, and ends at the start of another, where quiet is read.
	rounds := s.wholeRounds(c.window)
	s.atGapStart()
	if _, err := s.measure(ctx, "idle", "player-minutes", func() (int64, error) {
		time.Sleep(rounds)
		return int64(float64(c.players) * rounds.Minutes()), nil
	}); err != nil {
		return err
	}
	if _, err := s.measure(ctx, "quiet", "seconds between rounds", func() (int64, error) {
		d := s.gapLength()
		time.Sleep(d)
		return int64(d.Seconds()), nil
	}); err != nil {
		return err
	}
	s.faultsSoFar("after idle")
	if err := s.lists(ctx); err != nil {
		return err
	}
	if err := s.moves(ctx); err != nil {
		return err
	}
	if err := s.churn(ctx); err != nil {
		return err
	}
	if err := s.ratings(ctx); err != nil {
		return err
	}
	if err := s.expiry(ctx); err != nil {
		return err
	}
	s.faultsSoFar("before the kill")
	if c.killSample == 0 {
		return nil
	}
	return s.kill(ctx)
}

// faultsSoFar checks that no instance has logged a store fault.
func (s *sim) faultsSoFar(when string) {
	var n int64
	last := ""
	for i, in := range s.inst {
		if s.dead[i] {
			continue
		}
		n += in.log.faults.Load()
		if m, ok := in.log.last.Load().(string); ok {
			last = m
		}
	}
	s.check("no store faults "+when, n == 0, "%d warnings or errors logged by the instances; last: %q", n, last)
}

// connect makes players/4 rooms and seats their players, room r's seat j
// through instance (r+j) mod instances: every room on four instances, so
// each move is heard by three others, as the model assumes.
func (s *sim) connect(ctx context.Context) (int64, error) {
	c := s.cfg
	n := c.players / 4
	s.rooms = make([]*simRoom, n)
	var done atomic.Int64
	start := time.Now()
	err := parallel(ctx, n, c.workers, func(ctx context.Context, r int) error {
		room := &simRoom{}
		for j := range room.seats {
			room.seats[j] = &seat{p: player("sim", 4*r+j), in: (r + j) % c.instances}
		}
		host := room.seats[0]
		if err := retry(ctx, func(ctx context.Context) (err error) {
			p, err := identify(ctx, s.inst[host.in].lobby, host.p)
			if err != nil {
				return err
			}
			game := c.idleGame
			if r < c.movers {
				game = "" // the default game, Fantastic Factories
			}
			room.code, err = create(ctx, s.inst[host.in].lobby, p, game)
			return err
		}); err != nil {
			return fmt.Errorf("room %d: create: %w", r, err)
		}
		for j, st := range room.seats {
			if err := s.sit(ctx, room, st); err != nil {
				return fmt.Errorf("room %s: seat %d: %w", room.code, j, err)
			}
			if r >= c.movers {
				st.conn.SkipJSON() // a screen reads the view's value, never its JSON
			}
		}
		s.rooms[r] = room
		if d := done.Add(1); d%max(1, int64(n)/10) == 0 {
			logf("connect: %d of %d rooms seated (%.0f players a second)", d, n, float64(4*d)/time.Since(start).Seconds())
		}
		return nil
	})
	return int64(c.players), err
}

// sit connects st through its instance as a session does: identified
// (a returning key plays as its profile), then seated in room.
func (s *sim) sit(ctx context.Context, room *simRoom, st *seat) error {
	return retry(ctx, func(ctx context.Context) error {
		l := s.inst[st.in].lobby
		p, err := identify(ctx, l, st.p)
		if err != nil {
			return err
		}
		if st.conn, err = join(ctx, l, room.code, p); err != nil {
			return err
		}
		st.p = p
		return nil
	})
}

// lists checks that a room made on one instance is listed on the others,
// then has lobby screens refresh (public rooms, and the player's own
// games) on some instances, each refresh past the lists' cache.
func (s *sim) lists(ctx context.Context) error {
	host := player("seen", 0)
	var code string
	if err := retry(ctx, func(ctx context.Context) (err error) {
		code, err = create(ctx, s.inst[0].lobby, host, "")
		return err
	}); err != nil {
		return fmt.Errorf("lists: create: %w", err)
	}
	for k := 1; k <= 3; k++ {
		t0 := time.Now()
		seen := false
		for !seen && time.Since(t0) < 10*time.Second {
			ok, err := listed(ctx, s.inst[k].lobby, code)
			if err != nil {
				logf("lists: instance %d: %v", k, err) // seen stays false; the check says so
			}
			seen = ok
			if !seen {
				time.Sleep(200 * time.Millisecond)
			}
		}
		s.check(fmt.Sprintf("a room made on instance 0 is listed on instance %d", k), seen,
			"room %s listed after %s", code, time.Since(t0).Round(time.Millisecond))
	}
	c := s.cfg
	// Each screen is a player seated through its instance, as their
	// profile (Identify, as at their connect).
	screens := make([]lobby.Player, min(c.listInstances, c.instances))
	for k := range screens {
		p, err := identify(ctx, s.inst[k].lobby, s.rooms[k].seats[0].p)
		if err != nil {
			return fmt.Errorf("lists: %w", err)
		}
		screens[k] = p
	}
	var shown, failed atomic.Int64
	var lastErr atomic.Value
	s.awaitGap(time.Duration(c.refreshes)*3*time.Second + 2*time.Second)
	p, err := s.measure(ctx, "lists", "refreshes", func() (int64, error) {
		var n atomic.Int64
		err := parallel(ctx, len(screens), len(screens), func(ctx context.Context, k int) error {
			who := screens[k]
			for i := range c.refreshes {
				if i > 0 {
					time.Sleep(3 * time.Second)
				}
				rooms, err := refresh(ctx, s.inst[k].lobby, who)
				n.Add(1)
				if err != nil {
					failed.Add(1)
					lastErr.Store(err.Error())
					continue
				}
				shown.Add(int64(rooms))
			}
			return nil
		})
		return n.Load(), err
	})
	if err != nil {
		return err
	}
	s.check("every lobby refresh answers", failed.Load() == 0, "%d of %d refreshes failed; last: %v", failed.Load(), p.Units, lastErr.Load())
	per := float64(s.own(p).total()) / float64(p.Units)
	bound := max(float64(len(s.rooms))/10, 100)
	s.check("a lobby refresh reads a page, not every room", per < bound,
		"%.0f commands a refresh with %d rooms stored (%.0f rooms shown a refresh); bound: a tenth of the rooms stored, at least 100", per, len(s.rooms),
		float64(shown.Load())/float64(max(1, p.Units-failed.Load())))
	return nil
}

// phase is the phase measured under name.
func (s *sim) phase(name string) phase {
	for _, p := range s.phases {
		if p.Name == name {
			return p
		}
	}
	return phase{Seconds: 1, Work: work{Commands: map[string]int64{}}}
}

// moves has the first movers rooms play: each makes a move every think
// (±50%), by a random bot for whichever of its seats may act.
func (s *sim) moves(ctx context.Context) error {
	c := s.cfg
	g := simGames()[0]
	var moves, refused atomic.Int64
	rounds := s.wholeRounds(c.window)
	s.atGapStart()
	p, err := s.measure(ctx, "moves", "moves", func() (int64, error) {
		end := time.Now().Add(rounds)
		var wg sync.WaitGroup
		for r, room := range s.rooms[:c.movers] {
			wg.Go(func() {
				rng := rand.New(rand.NewPCG(uint64(r), 42))
				bots := make([]engine.Bot, 4)
				for j := range bots {
					b, err := g.Bots.New("random", uint64(r*4+j))
					if err != nil {
						panic(err) // the game's own bot by its own name
					}
					bots[j] = b
				}
				time.Sleep(time.Duration(rng.Int64N(int64(c.think))))
				for ctx.Err() == nil {
					// The seats that may act, as the newest view of the
					// four tells; a seat whose own view is older waits.
					ups, newest := room.latest()
					for _, j := range rng.Perm(4) {
						st, u := room.seats[j], ups[j]
						if u.View == nil || u.Room.Over || u.Version != ups[newest].Version || !slices.Contains(ups[newest].Room.Acting, j) {
							continue
						}
						mv, err := bots[j](u.View)
						if err != nil {
							continue
						}
						if err := st.conn.Move(ctx, mv); err != nil {
							refused.Add(1)
							continue
						}
						moves.Add(1)
						break
					}
					pause := jitter(rng, c.think)
					if time.Until(end) < pause {
						break
					}
					time.Sleep(pause)
				}
			})
		}
		wg.Wait()
		time.Sleep(time.Until(end)) // whole rounds
		return moves.Load(), nil
	})
	if err != nil {
		return err
	}
	if p.Units == 0 {
		return errors.New("moves: no move was played")
	}
	s.moveCost = s.own(p).scaled(1 / float64(p.Units))
	logf("moves: %d played, %d refused (a stale view, or not the seat's turn)", moves.Load(), refused.Load())
	return nil
}

// churn has players leave and come back through the next instance, as
// a dropped connection does through the balancer: each takes their own
// seat back.
func (s *sim) churn(ctx context.Context) error {
	c := s.cfg
	n := min(c.churn, c.players)
	step := max(1, c.players/n)
	var wrong atomic.Int64
	s.awaitGap(5 * time.Second)
	_, err := s.measure(ctx, "churn", "leaves and connects", func() (int64, error) {
		err := parallel(ctx, n, c.workers, func(ctx context.Context, i int) error {
			k := i * step
			room, j := s.rooms[k/4], k%4
			st := room.seats[j]
			st.conn.Close()
			st.in = (st.in + 4) % c.instances
			if err := s.sit(ctx, room, st); err != nil {
				return fmt.Errorf("churn: %s seat %d: %w", room.code, j, err)
			}
			if st.conn.Seat() != j {
				wrong.Add(1)
			}
			if k/4 >= c.movers {
				st.conn.SkipJSON()
			}
			return nil
		})
		return int64(n), err
	})
	if err != nil {
		return err
	}
	s.check("a player coming back through another instance takes their own seat", wrong.Load() == 0, "%d of %d in another seat", wrong.Load(), n)
	return nil
}

// ratings seats rated rooms of four new players, plays their games of
// tally to one move before the end, then, measured, plays the last moves
// and waits until every seat's rating change shows on all four instances
// and every player is on the leaderboard.
func (s *sim) ratings(ctx context.Context) error {
	c := s.cfg
	rooms := make([]*simRoom, c.rated)
	err := parallel(ctx, c.rated, c.workers, func(ctx context.Context, t int) error {
		room := &simRoom{}
		for j := range room.seats {
			room.seats[j] = &seat{p: player("rated", 4*t+j), in: (t + j) % c.instances}
		}
		if err := retry(ctx, func(ctx context.Context) (err error) {
			room.code, err = create(ctx, s.inst[room.seats[0].in].lobby, room.seats[0].p, tally.Rules.Name())
			return err
		}); err != nil {
			return err
		}
		for _, st := range room.seats {
			if err := s.sit(ctx, room, st); err != nil {
				return err
			}
		}
		rooms[t] = room
		return playTally(ctx, room, 2*4*tally.Rounds-1)
	})
	if err != nil {
		return fmt.Errorf("ratings: %w", err)
	}
	var late atomic.Int64
	s.awaitGap(5 * time.Second)
	p, err := s.measure(ctx, "ratings", "games rated", func() (int64, error) {
		err := parallel(ctx, len(rooms), len(rooms), func(ctx context.Context, t int) error {
			room := rooms[t]
			if err := playTally(ctx, room, 2*4*tally.Rounds); err != nil {
				return err
			}
			deadline := time.Now().Add(30 * time.Second)
			for _, st := range room.seats {
				for {
					in, err := info(ctx, s.inst[st.in].lobby, room.code, st.p)
					if err == nil && len(in.Ratings) == 4 {
						break
					}
					if time.Now().After(deadline) {
						late.Add(1)
						return nil
					}
					time.Sleep(100 * time.Millisecond)
				}
			}
			return nil
		})
		return int64(len(rooms)), err
	})
	if err != nil {
		return err
	}
	s.check("every finished game's ratings show on all four of its instances", late.Load() == 0,
		"%d of %d rooms without their ratings after 30s", late.Load(), len(rooms))
	missing := 0
	for t, room := range rooms {
		for _, st := range room.seats {
			l := s.inst[(t+2)%c.instances].lobby
			p, err := identify(ctx, l, st.p)
			ok := false
			if err == nil {
				ok, err = ranked(ctx, l, tally.Rules.Name(), p)
			}
			if err != nil || !ok {
				missing++
			}
		}
	}
	s.check("every rated player is on the leaderboard, read through another instance", missing == 0,
		"%d of %d players missing", missing, 4*len(rooms))
	_ = p
	return nil
}

// playTally plays room's game until target moves are played: one move
// at a time, by a seat whose view is the newest and lists a legal move,
// so that no seat moves on a view a move behind.
func playTally(ctx context.Context, room *simRoom, target int) error {
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		ups, newest := room.latest()
		if ups[newest].Version >= target || ups[newest].Room.Over {
			return nil
		}
		for j, st := range room.seats {
			var v tally.View
			if ups[j].Version != ups[newest].Version || ups[j].View == nil || json.Unmarshal(ups[j].View, &v) != nil || len(v.Legal) == 0 {
				continue
			}
			mv, _ := json.Marshal(v.Legal[0])
			if st.conn.Move(ctx, mv) == nil {
				// Wait for the mover's own view of it before the next.
				for st.latest().Version == ups[newest].Version && time.Now().Before(deadline) {
					time.Sleep(5 * time.Millisecond)
				}
			}
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	return fmt.Errorf("room %s: %d moves not played in 3 minutes", room.code, target)
}

// expiry makes rooms that look two hours old (a lobby whose clock runs
// two hours behind makes them, and nobody sits), then starts instances
// with expiry on (an hour) and measures until they have removed them:
// each room once, by one instance, reading only the rooms that are due.
func (s *sim) expiry(ctx context.Context) error {
	c := s.cfg
	behind := s.config()
	behind.now = func() time.Time { return time.Now().Add(-2 * time.Hour) }
	old, err := startIdleLobby(ctx, behind)
	if err != nil {
		return err
	}
	codes := make([]string, c.abandoned)
	err = parallel(ctx, c.abandoned, c.workers, func(ctx context.Context, i int) error {
		return retry(ctx, func(ctx context.Context) (err error) {
			codes[i], err = create(ctx, old.lobby, player("gone", i), "")
			return err
		})
	})
	old.store.Close()
	if err != nil {
		return fmt.Errorf("expiry: %w", err)
	}
	time.Sleep(2 * time.Second)

	var extra []*instance
	defer func() {
		for _, in := range extra {
			in.close()
		}
	}()
	timedOut := false
	s.awaitGap(10 * time.Second)
	p, err := s.measure(ctx, "expiry", "rooms expired", func() (int64, error) {
		cfg := s.config()
		cfg.expire = time.Hour
		for i := range c.expiryInstances {
			in, err := startInstance(ctx, c.instances+i, cfg)
			if err != nil {
				return 0, err
			}
			extra = append(extra, in)
		}
		deadline := time.Now().Add(150 * time.Second)
		for {
			var n int64
			for _, in := range append(extra, s.inst...) {
				n += in.log.expired.Load()
			}
			if n >= int64(c.abandoned) {
				time.Sleep(2 * time.Second) // a second instance's pass would show now
				return n, nil
			}
			if time.Now().After(deadline) {
				timedOut = true
				return n, nil
			}
			time.Sleep(250 * time.Millisecond)
		}
	})
	if err != nil {
		return err
	}
	s.expiryChecks(ctx, p, codes, append(s.inst, extra...), timedOut)
	return nil
}

// expiryChecks checks the expiry phase p: every room in codes gone, each
// expired once, by one of instances, and read no more than it must.
func (s *sim) expiryChecks(ctx context.Context, p phase, codes []string, instances []*instance, timedOut bool) {
	c := s.cfg
	by := []int64{}
	holders := 0
	var sum int64
	for _, in := range instances {
		n := in.log.expired.Load()
		by = append(by, n)
		sum += n
		if n > 0 {
			holders++
		}
	}
	s.expiryHolders = holders
	s.check("every abandoned room expires, once, by one instance", !timedOut && sum == int64(c.abandoned) && holders == 1,
		"%d rooms, %d expiries logged, by instance (the fleet's, then the phase's): %v, in %.1fs", c.abandoned, sum, by, p.Seconds)
	gone := 0
	for _, code := range codes[:min(10, len(codes))] {
		if _, err := info(ctx, s.inst[0].lobby, code, player("look", 0)); err != nil {
			gone++
		}
	}
	s.check("an expired room is gone for every instance", gone == min(10, len(codes)), "%d of %d looked up are gone", gone, min(10, len(codes)))
	// Its own work: above the fleet's idle, less the new instances' own
	// upkeep (the baseline's, per instance).
	above := s.own(p).minus(s.phase("baseline").rate().scaled(p.Seconds * float64(c.expiryInstances) / float64(c.instances)))
	s.check("expiry reads only the rooms that are due", float64(above.total()) < max(float64(len(s.rooms))/4, 1000),
		"%d commands above idle for %d due rooms with %d stored; bound: a quarter of the rooms stored, at least 1,000", above.total(), c.abandoned, len(s.rooms)+c.abandoned)
}

// startIdleLobby is a lobby on its own store that is not run: it only
// makes rooms.
func startIdleLobby(ctx context.Context, c instanceConfig) (*instance, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	st, err := redisstore.OpenCluster(ctx, c.url)
	if err != nil {
		return nil, err
	}
	in := &instance{store: st, log: &counting{}}
	in.lobby = lobby.New(lobby.Config{Store: st, Games: simGames(), PresenceTTL: c.ttl, Now: c.now})
	return in, nil
}

// killWatch is a seat of the killed instance, watched from an instance
// holding another seat of its room. freed is when it was first seen
// empty, and held when a look that still found it held began: it emptied
// in between. Only a look begun past the limit that finds it held shows
// the limit broken; how late the first empty look returns is the
// watcher's own delay too, on a busy machine.
type killWatch struct {
	room        *simRoom
	seat        int // the victim's seat
	observer    *seat
	freed, held time.Duration
}

// watchFreed looks at the watched seats every 250 ms from t0, the kill,
// until all show empty or three TTLs have passed. It returns how many
// never did, the latest first sight of one empty (three TTLs for one
// never seen so), and the latest look begun that found one held.
func (s *sim) watchFreed(ctx context.Context, watches []*killWatch, t0 time.Time) (pending int, worst, heldLast time.Duration) {
	pending = len(watches)
	for pending > 0 && time.Since(t0) < 3*s.cfg.ttl {
		for _, w := range watches {
			if w.freed != 0 {
				continue
			}
			asked := time.Since(t0)
			in, err := info(ctx, s.inst[w.observer.in].lobby, w.room.code, w.observer.p)
			switch {
			case err != nil:
			case in.Seats[w.seat].Connected:
				w.held = asked
			default:
				w.freed = time.Since(t0)
				pending--
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	for _, w := range watches {
		if w.freed == 0 {
			worst = 3 * s.cfg.ttl
		}
		worst, heldLast = max(worst, w.freed), max(heldLast, w.held)
	}
	return pending, worst, heldLast
}

// kill kills the last instance as a crash would, and watches some of its
// rooms from instances holding their other seats: its players' seats must
// show empty there within the presence TTL, and its players must get
// their own seats back through another instance.
func (s *sim) kill(ctx context.Context) error {
	c := s.cfg
	victim := c.instances - 1
	var watches []*killWatch
	for _, room := range s.rooms {
		if len(watches) >= c.killSample {
			break
		}
		for j, st := range room.seats {
			if st.in != victim {
				continue
			}
			obs := room.seats[(j+1)%4]
			if obs.in == victim {
				obs = room.seats[(j+2)%4]
			}
			watches = append(watches, &killWatch{room: room, seat: j, observer: obs})
			break
		}
	}
	// Every watched seat shows held before the kill.
	held := 0
	for _, w := range watches {
		in, err := info(ctx, s.inst[w.observer.in].lobby, w.room.code, w.observer.p)
		if err == nil && in.Seats[w.seat].Connected {
			held++
		}
	}
	s.check("the victim's seats show held on the other instances before the kill", held == len(watches), "%d of %d", held, len(watches))

	t0 := time.Now()
	s.inst[victim].kill()
	s.dead[victim] = true
	limit := c.ttl + c.ttl/3
	pending, worst, heldLast := s.watchFreed(ctx, watches, t0)
	s.check("a killed instance's seats show empty on the others within the TTL and a renewal", pending == 0 && heldLast <= limit,
		"%d of %d seats freed, the last seen held %s after the kill and seen empty after %s (TTL %s, limit %s)",
		len(watches)-pending, len(watches), heldLast.Round(100*time.Millisecond), worst.Round(100*time.Millisecond), c.ttl, limit)

	// Its players come back through other instances, to their own seats.
	back := 0
	for i, w := range watches[:min(10, len(watches))] {
		st := w.room.seats[w.seat]
		st.in = (victim + 1 + i) % c.instances
		if st.in == victim {
			st.in = 0
		}
		if err := s.sit(ctx, w.room, st); err == nil && st.conn.Seat() == w.seat {
			back++
		}
	}
	s.check("a killed instance's players take their seats back through others", back == min(10, len(watches)), "%d of %d", back, min(10, len(watches)))
	return nil
}
