package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// frameInterval is Bubble Tea's default frame tick (60 fps). A key is
// pressed at a random point within one, as a person's would be.
const frameInterval = time.Second / 60

// result is everything measured for one variant.
type result struct {
	Variant variant `json:"variant"`
	// Rooms: a few rooms of four table sessions, moves one after another.
	Rooms roomsResult `json:"rooms"`
	// Lobby: many counter sessions, idle, then keys on one at a time.
	Lobby crowdResult `json:"lobby"`
	// Game: as many table sessions, idle, then every room moving at a pace.
	Game crowdResult `json:"game"`
}

type roomsResult struct {
	Rooms      int          `json:"rooms"`
	Moves      int          `json:"moves"`
	KeyOwn     latency      `json:"key_own"`     // mover's key to the mover's own redraw
	Others     latency      `json:"move_others"` // mover's key to each other seat's redraw
	Bytes      bytesPerMove `json:"bytes"`
	CPUPerMove float64      `json:"cpu_per_move_us"` // server CPU for a move and its four redraws
}

type crowdResult struct {
	Sessions   int        `json:"sessions"`
	RSS        int64      `json:"rss_per_session"`  // resident set growth per session, after GC
	Heap       int64      `json:"heap_per_session"` // Go heap in use, growth per session
	Goroutines float64    `json:"goroutines_per_session"`
	HeapTop    []heapLine `json:"heap_top"`
	Profile    string     `json:"heap_profile"`
	IdleCPU    float64    `json:"idle_cpu_us_per_s"` // server CPU per session per second, nobody typing
	// Lobby only: a key on one session at a time to that session's redraw.
	KeyOwn *latency `json:"key_own,omitempty"`
	// Game only: every room moving once per pace.
	PlayCPU    float64       `json:"play_cpu_us_per_s,omitempty"`
	CPUPerMove float64       `json:"cpu_per_move_us,omitempty"` // above idle
	Others     *latency      `json:"move_others,omitempty"`
	Bytes      *bytesPerMove `json:"bytes,omitempty"`
	Moves      int           `json:"moves,omitempty"`
	Missed     int           `json:"missed,omitempty"` // watchers that drew nothing within --timeout
}

// bytesPerMove is what each watcher received for one move.
type bytesPerMove struct {
	Mean float64 `json:"mean"`
	Min  int64   `json:"min"`
	Max  int64   `json:"max"`
}

// measure runs every phase on one variant's server.
func measure(ctx context.Context, c config, v variant, log *slog.Logger) (result, error) {
	res := result{Variant: v}
	srv, err := startServer(ctx, v)
	if err != nil {
		return res, err
	}
	defer srv.stop()
	log.Info("rooms", "variant", v.Name, "rooms", c.rooms, "moves", c.moves)
	if res.Rooms, err = measureRooms(ctx, c, srv); err != nil {
		return res, fmt.Errorf("%s rooms: %w", v.Name, err)
	}
	log.Info("lobby", "variant", v.Name, "sessions", c.sessions)
	if res.Lobby, err = measureCrowd(ctx, c, srv, "counter"); err != nil {
		return res, fmt.Errorf("%s lobby: %w", v.Name, err)
	}
	log.Info("game", "variant", v.Name, "sessions", c.sessions)
	if res.Game, err = measureCrowd(ctx, c, srv, "table"); err != nil {
		return res, fmt.Errorf("%s game: %w", v.Name, err)
	}
	return res, nil
}

// roomTerms is room i's four terminals: they are opened four to a room.
func roomTerms(terms []*term, i int) []*term { return terms[4*i : 4*i+4] }

// measureRooms plays c.moves moves over c.rooms rooms at once, each room
// one move at a time: every terminal quiet, a random part of a frame, a
// key on the mover, then the first output at each terminal.
func measureRooms(ctx context.Context, c config, srv *server) (roomsResult, error) {
	res := roomsResult{Rooms: c.rooms}
	terms, err := openTerms(ctx, srv.addrs.SSH, 4*c.rooms, func(i int) string { return fmt.Sprintf("table r%d", i/4) }, c.settle)
	if err != nil {
		return res, err
	}
	defer closeTerms(terms)
	s0, err := srv.stats(false)
	if err != nil {
		return res, err
	}
	var rec recorder
	var left atomic.Int64
	left.Store(int64(c.moves))
	errs := make(chan error, c.rooms)
	for r := range c.rooms {
		go func() {
			jitter := rand.New(rand.NewPCG(uint64(r), 1))
			ts := roomTerms(terms, r)
			for n := 0; left.Add(-1) >= 0; n++ {
				if err := playMove(ctx, c, ts, n%4, jitter, &rec); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range c.rooms {
		err = errors.Join(err, <-errs)
	}
	if err != nil {
		return res, err
	}
	s1, err := srv.stats(false)
	if err != nil {
		return res, err
	}
	res.Moves = rec.moves
	res.KeyOwn, res.Others, res.Bytes = summarise(rec.own), summarise(rec.others), rec.bytesPerMove()
	res.CPUPerMove = micros(s1.CPU-s0.CPU) / float64(rec.moves)
	return res, nil
}

// playMove makes one measured move in a room.
func playMove(ctx context.Context, c config, ts []*term, mover int, jitter *rand.Rand, rec *recorder) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	if err := allQuiet(ctx, ts, c.settle); err != nil {
		return err
	}
	time.Sleep(time.Duration(jitter.Int64N(int64(frameInterval))))
	sent := time.Now()
	for _, t := range ts {
		t.watch(sent)
	}
	if err := ts[mover].press("m"); err != nil {
		return err
	}
	var m move
	for i, t := range ts {
		at, err := t.firstOutput(ctx)
		if err != nil {
			return err // every seat redraws for every move
		}
		if i == mover {
			m.own = at.Sub(sent)
		} else {
			m.others = append(m.others, at.Sub(sent))
		}
	}
	if err := allQuiet(ctx, ts, c.settle); err != nil {
		return err
	}
	for i, t := range ts {
		if i != mover {
			m.bytes = append(m.bytes, t.sinceWatch())
		}
	}
	rec.add(m)
	return nil
}

// measureCrowd connects c.sessions sessions of app (the table app in
// rooms of four), and measures memory, idle CPU, then either keys on one
// counter at a time or every room moving once per c.pace.
func measureCrowd(ctx context.Context, c config, srv *server, app string) (crowdResult, error) {
	res := crowdResult{Sessions: c.sessions}
	if err := srv.idle(ctx); err != nil {
		return res, err
	}
	base, err := srv.stats(true)
	if err != nil {
		return res, err
	}
	cmd := func(int) string { return "counter" }
	if app == "table" {
		cmd = func(i int) string { return fmt.Sprintf("table g%d", i/4) }
	}
	terms, err := openTerms(ctx, srv.addrs.SSH, c.sessions, cmd, c.settle)
	if err != nil {
		return res, err
	}
	defer closeTerms(terms)
	full, err := srv.stats(true)
	if err != nil {
		return res, err
	}
	n := int64(c.sessions)
	res.RSS = (full.RSS - base.RSS) / n
	res.Heap = (int64(full.HeapInuse) - int64(base.HeapInuse)) / n
	res.Goroutines = float64(full.Goroutines-base.Goroutines) / float64(n)
	res.Profile = filepath.Join(c.out, fmt.Sprintf("heap-%s-%s.pb.gz", srv.v.Name, app))
	if res.HeapTop, err = srv.heapTop(res.Profile, c.sessions, 8); err != nil {
		return res, err
	}
	idle, err := cpuOver(ctx, srv, c.window, nil)
	if err != nil {
		return res, err
	}
	res.IdleCPU = micros(idle) / c.window.Seconds() / float64(n)
	if app == "counter" {
		own, err := pressKeys(ctx, c, terms)
		if err != nil {
			return res, err
		}
		res.KeyOwn = &own
		return res, nil
	}
	var rec recorder
	play, err := cpuOver(ctx, srv, c.window, func(ctx context.Context) error { return pace(ctx, c, terms, &rec) })
	if err != nil {
		return res, err
	}
	res.PlayCPU = micros(play) / c.window.Seconds() / float64(n)
	res.Moves = rec.moves
	if rec.moves > 0 {
		res.CPUPerMove = micros(play-idle) / float64(rec.moves)
	}
	others, bytes := summarise(rec.others), rec.bytesPerMove()
	res.Others, res.Bytes, res.Missed = &others, &bytes, rec.missed
	return res, nil
}

// cpuOver is the server's CPU time over window while work (if any) runs;
// work is stopped when the window closes.
func cpuOver(ctx context.Context, srv *server, window time.Duration, work func(context.Context) error) (time.Duration, error) {
	s0, err := srv.stats(false)
	if err != nil {
		return 0, err
	}
	wctx, cancel := context.WithTimeout(ctx, window)
	defer cancel()
	var werr error
	if work != nil {
		werr = work(wctx)
	} else {
		<-wctx.Done()
	}
	if ctx.Err() != nil {
		return 0, ctx.Err()
	}
	s1, err := srv.stats(false)
	if err != nil {
		return 0, err
	}
	return s1.CPU - s0.CPU, werr
}

// pressKeys types c.keys keys, each on a random counter once it is quiet,
// and returns how long each took to reach that counter's screen.
func pressKeys(ctx context.Context, c config, terms []*term) (latency, error) {
	rng := rand.New(rand.NewPCG(2, 3))
	var own []time.Duration
	for range c.keys {
		t := terms[rng.IntN(len(terms))]
		kctx, cancel := context.WithTimeout(ctx, c.timeout)
		err := t.quiet(kctx, c.settle)
		if err == nil {
			time.Sleep(time.Duration(rng.Int64N(int64(frameInterval))))
			sent := time.Now()
			t.watch(sent)
			if err = t.press("+"); err == nil {
				var at time.Time
				at, err = t.firstOutput(kctx)
				own = append(own, at.Sub(sent))
			}
		}
		cancel()
		if err != nil {
			return latency{}, err
		}
	}
	return summarise(own), nil
}

// pace has every room make a move once per c.pace, the rooms spread
// evenly over it, until ctx ends, recording when each move reached the
// other seats and how many bytes they received for it.
func pace(ctx context.Context, c config, terms []*term, rec *recorder) error {
	rooms := len(terms) / 4
	var wg sync.WaitGroup
	for r := range rooms {
		wg.Go(func() {
			ts := roomTerms(terms, r)
			t := time.NewTimer(c.pace * time.Duration(r) / time.Duration(rooms))
			defer t.Stop()
			var prev *move // bytes of a move are counted when the next begins
			for n := 0; ; n++ {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				}
				t.Reset(c.pace)
				mover := n % 4
				if prev != nil {
					for i, w := range ts {
						if i != (n-1)%4 {
							prev.bytes = append(prev.bytes, w.sinceWatch())
						}
					}
					rec.add(*prev)
				}
				sent := time.Now()
				for _, w := range ts {
					w.watch(sent)
				}
				if ts[mover].press("m") != nil {
					return
				}
				m := &move{}
				for i, w := range ts {
					if i == mover {
						continue
					}
					mctx, cancel := context.WithTimeout(ctx, c.timeout)
					at, err := w.firstOutput(mctx)
					cancel()
					if err != nil {
						if ctx.Err() != nil {
							return // the window closed mid-move: not counted
						}
						m.missed++
						continue
					}
					m.others = append(m.others, at.Sub(sent))
				}
				prev = m
			}
		})
	}
	wg.Wait()
	return nil
}

// allQuiet waits until each terminal has been quiet for d.
func allQuiet(ctx context.Context, terms []*term, d time.Duration) error {
	for _, t := range terms {
		if err := t.quiet(ctx, d); err != nil {
			return err
		}
	}
	return nil
}

// move is one measured move.
type move struct {
	own    time.Duration
	others []time.Duration
	bytes  []int64 // per watcher
	missed int
}

// recorder collects moves from every room.
type recorder struct {
	mu     sync.Mutex
	moves  int
	own    []time.Duration
	others []time.Duration
	bytes  []int64
	missed int
}

func (r *recorder) add(m move) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.moves++
	if m.own > 0 {
		r.own = append(r.own, m.own)
	}
	r.others = append(r.others, m.others...)
	r.bytes = append(r.bytes, m.bytes...)
	r.missed += m.missed
}

func (r *recorder) bytesPerMove() bytesPerMove {
	var b bytesPerMove
	if len(r.bytes) == 0 {
		return b
	}
	var sum int64
	b.Min = r.bytes[0]
	for _, n := range r.bytes {
		sum += n
		b.Min, b.Max = min(b.Min, n), max(b.Max, n)
	}
	b.Mean = float64(sum) / float64(len(r.bytes))
	return b
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
