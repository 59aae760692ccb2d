package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/smokestack/smokestack/lobby"
)

// sim is one run: the fleet, its players and what was measured.
type sim struct {
	cfg     config
	cluster *redisCluster
	meter   *meter
	begun   time.Time
	inst    []*instance // the fleet; a killed one stays, marked dead
	dead    map[int]bool
	rooms   []*simRoom
	phases  []phase
	checks  []check
	// moveCost is a move's work above idle (the moves phase), for the
	// ratings phase to take out its last moves.
	moveCost work
	// expiryHolders is how many instances expired rooms.
	expiryHolders int
	mu            sync.Mutex
}

// seat is one simulated player: who, through which instance, and the
// connection that instance gave them.
type seat struct {
	p    lobby.Player
	in   int
	conn *lobby.Conn
	last lobby.Update
}

// simRoom is one room of four, its players on four instances.
type simRoom struct {
	code  string
	seats [4]*seat
}

// phase is one measured stretch: its work on the primaries and how many
// of its unit it did.
type phase struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
	Units   int64   `json:"units"`
	Unit    string  `json:"unit"`
	Work    work    `json:"work"`
	// Ticks is how many presence renewal rounds (one instance's, each)
	// fell in the phase, from the instances' start times.
	Ticks    int `json:"renewal_rounds"`
	from, to time.Time
}

// rate is the phase's work a second.
func (p phase) rate() work { return p.Work.scaled(1 / p.Seconds) }

// above is the phase's work less rate (work a second) over its length.
func (p phase) above(rate work) work { return p.Work.minus(rate.scaled(p.Seconds)) }

// check is one thing the fleet must do right.
type check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

func (s *sim) check(name string, ok bool, format string, args ...any) {
	c := check{Name: name, OK: ok, Detail: fmt.Sprintf(format, args...)}
	s.mu.Lock()
	s.checks = append(s.checks, c)
	s.mu.Unlock()
	word := "ok  "
	if !ok {
		word = "FAIL"
	}
	logf("check %s %s: %s", word, name, c.Detail)
}

func (s *sim) passed() bool {
	for _, c := range s.checks {
		if !c.OK {
			return false
		}
	}
	return len(s.checks) > 0
}

// measure runs fn between two reads of the primaries' work and keeps the
// difference as a phase (the meter's own INFO calls left out).
func (s *sim) measure(ctx context.Context, name, unit string, fn func() (int64, error)) (phase, error) {
	before, err := s.meter.read(ctx)
	if err != nil {
		return phase{}, err
	}
	t0, cpu0 := time.Now(), cpuTime()
	units, err := fn()
	if err != nil {
		return phase{}, fmt.Errorf("%s: %w", name, err)
	}
	dt := time.Since(t0)
	after, err := s.meter.read(ctx)
	if err != nil {
		return phase{}, err
	}
	w := after.minus(before)
	delete(w.Commands, "info")
	p := phase{Name: name, Seconds: dt.Seconds(), Units: units, Unit: unit, Work: w, from: t0, to: t0.Add(dt)}
	p.Ticks = s.ticksIn(p.from, p.to)
	s.phases = append(s.phases, p)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	logf("phase %s: %.1fs (%d renewal rounds), %d %s, %d commands, %d bytes; the simulator's CPU %.1fs, heap %d MB, load average %s",
		name, p.Seconds, p.Ticks, units, unit, w.total(), w.bytes(), (cpuTime() - cpu0).Seconds(), ms.HeapAlloc>>20, loadAverage())
	return p, nil
}

// Renewal rounds. An instance renews its claims on seats every third of
// the presence TTL, counted from its start: a burst of work per round
// that, with a hundred thousand seated players, dwarfs what a short phase
// does itself. So phases are placed between rounds where they can be
// (awaitGap), the idle and moves phases last whole rounds, and a phase's
// own work is taken net of the quiet rate between rounds and of each
// round that fell in it (own).

// every is the renewal interval.
func (s *sim) every() time.Duration { return s.cfg.ttl / 3 }

// ticksIn counts the renewal rounds of the running instances in [a, b).
func (s *sim) ticksIn(a, b time.Time) int {
	n := 0
	for i, in := range s.inst {
		if s.dead[i] && in.died.Before(a) {
			continue
		}
		end := b
		if s.dead[i] && in.died.Before(end) {
			end = in.died
		}
		for t := in.started.Add(s.every()); t.Before(end); t = t.Add(s.every()) {
			if !t.Before(a) {
				n++
			}
		}
	}
	return n
}

// wholeRounds is d rounded up to whole renewal intervals.
func (s *sim) wholeRounds(d time.Duration) time.Duration {
	r := s.every()
	return max(1, (d+r-1)/r) * r
}

// spread is how far apart the instances started.
func (s *sim) spread() time.Duration {
	first, last := s.inst[0].started, s.inst[0].started
	for _, in := range s.inst {
		first, last = minTime(first, in.started), maxTime(last, in.started)
	}
	return last.Sub(first)
}

// gapLength is how long a gap between rounds lasts.
func (s *sim) gapLength() time.Duration {
	return max(0, s.every()-s.gapMargin()-s.spread()-500*time.Millisecond)
}

// atGapStart waits until a gap between rounds begins.
func (s *sim) atGapStart() { s.awaitGap(s.gapLength()) }

// gapMargin is how long after a round's tick its round may still run.
func (s *sim) gapMargin() time.Duration { return max(time.Second, s.every()/5) }

// awaitGap waits, if need be, until a stretch between the instances'
// rounds begins that has need left in it; with gaps too short for need
// (a short TTL), until the next gap begins.
func (s *sim) awaitGap(need time.Duration) {
	first, last := s.inst[0].started, s.inst[0].started
	for _, in := range s.inst {
		first, last = minTime(first, in.started), maxTime(last, in.started)
	}
	r := s.every()
	// Every gap is as long: with none long enough, any gap's start does.
	need = min(need, max(0, s.gapLength()-100*time.Millisecond))
	now := time.Now()
	k := now.Sub(last) / r
	start := last.Add(k*r + s.gapMargin())
	end := first.Add((k+1)*r - 500*time.Millisecond)
	switch {
	case now.Before(start):
		time.Sleep(start.Sub(now))
	case end.Sub(now) < need:
		time.Sleep(last.Add((k+1)*r + s.gapMargin()).Sub(now))
	}
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// own is phase p's own work: less the quiet rate over its length and
// each renewal round that fell in it.
func (s *sim) own(p phase) work {
	if s.roundsOverlap() {
		return p.Work.minus(s.phase("idle").rate().scaled(p.Seconds))
	}
	quiet := s.phase("quiet")
	w := p.Work.minus(quiet.rate().scaled(p.Seconds))
	return w.minus(s.roundCost().scaled(float64(p.Ticks)))
}

// roundsOverlap reports whether the renewal rounds ran into each other
// (each instance's round took about its interval, so no gap was quiet):
// then a phase's own work is what it did above the idle rate.
func (s *sim) roundsOverlap() bool {
	idle, quiet := s.phase("idle").rate(), s.phase("quiet").rate()
	return float64(quiet.total()) > float64(idle.total())/2
}

// roundCost is one instance's renewal round: idle less its quiet rate,
// over the rounds idle held.
func (s *sim) roundCost() work {
	idle, quiet := s.phase("idle"), s.phase("quiet")
	if idle.Ticks == 0 {
		return work{Commands: map[string]int64{}}
	}
	return idle.Work.minus(quiet.rate().scaled(idle.Seconds)).scaled(1 / float64(idle.Ticks))
}

func (s *sim) config() instanceConfig {
	return instanceConfig{url: s.cluster.url, ttl: s.cfg.ttl, expire: s.cfg.fleetExpire}
}

func (s *sim) closeAll() {
	for i, in := range s.inst {
		if in != nil && !s.dead[i] {
			in.close()
		}
	}
	s.inst = nil
}

func player(prefix string, n int) lobby.Player {
	name := fmt.Sprintf("%s%d", prefix, n)
	return lobby.Player{ID: "key:" + name, Key: "SHA256:" + name, Name: name}
}

// retry runs fn up to three times: under the load of a hundred thousand
// connects a call may meet a timeout the next try does not.
func retry(ctx context.Context, fn func(ctx context.Context) error) error {
	var err error
	for try := range 3 {
		c, cancel := context.WithTimeout(ctx, 30*time.Second)
		err = fn(c)
		cancel()
		if err == nil || ctx.Err() != nil {
			return err
		}
		time.Sleep(time.Duration(try+1) * 500 * time.Millisecond)
	}
	return err
}

// parallel runs fn(i) for i in [0, n) on workers goroutines, stopping at
// the first error.
func parallel(ctx context.Context, n, workers int, fn func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				if err := fn(ctx, i); err != nil {
					once.Do(func() { first = err; cancel() })
					return
				}
			}
		})
	}
	wg.Wait()
	return first
}

// cpuTime is the CPU this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadAverage is the machine's, as /proc/loadavg has it.
func loadAverage() string {
	data, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// jitter is d ±50%.
func jitter(r *rand.Rand, d time.Duration) time.Duration {
	return time.Duration(float64(d) * (0.5 + r.Float64()))
}

// latest takes the newest update waiting for each seat of r, and says
// which seat's is the newest of the four.
func (r *simRoom) latest() (ups [4]lobby.Update, newest int) {
	for j, st := range r.seats {
		ups[j] = st.latest()
		if ups[j].Version > ups[newest].Version {
			newest = j
		}
	}
	return ups, newest
}

// latest takes the newest update waiting for st, if any.
func (st *seat) latest() lobby.Update {
	for {
		select {
		case u := <-st.conn.Updates():
			st.last = u
		default:
			return st.last
		}
	}
}
