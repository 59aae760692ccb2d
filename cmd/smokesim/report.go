package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// productionTTL is the presence TTL the figures are reported at.
const productionTTL = 15 * time.Second

// unit is one kind of work: what one of its unit costs Redis, and how
// many of that unit a player makes a minute under the model's
// assumptions, so that kinds add up per player.
type unit struct {
	Kind     string  `json:"kind"`
	Unit     string  `json:"unit"`
	Commands float64 `json:"commands"` // a unit's
	Bytes    float64 `json:"bytes"`
	Per      float64 `json:"per_player_minute"` // units a player makes a minute
	Assumed  string  `json:"assumed"`
	// Top is the unit's five most frequent commands.
	Top string `json:"top"`
}

func (u unit) commandsPM() float64 { return u.Commands * u.Per }
func (u unit) bytesPM() float64    { return u.Bytes * u.Per }

// units derives each kind's unit from the phases.
func (s *sim) units() []unit {
	c := s.cfg
	n, inst := float64(c.players), float64(c.instances)
	base, idle := s.phase("baseline"), s.phase("idle")
	var out []unit
	add := func(kind, name string, w work, count, per float64, assumed string) {
		if count <= 0 {
			return
		}
		out = append(out, unit{Kind: kind, Unit: name, Commands: float64(w.total()) / count, Bytes: float64(w.bytes()) / count,
			Per: per, Assumed: assumed, Top: top(w, 5)})
	}
	add("instance", "an instance alone, a second", base.Work, base.Seconds*inst, 60*inst/n,
		fmt.Sprintf("%d instances for %d players", c.instances, c.players))
	// Idle above the instances' own upkeep is the seats' presence: at a
	// TTL other than production's it renews that much more or less often.
	claims := idle.above(base.rate())
	ttlScale := c.ttl.Seconds() / productionTTL.Seconds()
	assumed := "every player seated, nobody moving"
	if ttlScale != 1 {
		assumed += fmt.Sprintf("; run at TTL %s, scaled ×%.2g to 15s", c.ttl, ttlScale)
	}
	add("claims/presence", "a seated player, a minute", claims.scaled(ttlScale), n*idle.Seconds/60, 1, assumed)
	if p := s.phase("churn"); p.Units > 0 {
		add("connects", "a leave and a connect", s.own(p), float64(p.Units), 1.0/30, "a session of 30 minutes")
	}
	if p := s.phase("lists"); p.Units > 0 {
		add("lists", "a lobby refresh", s.own(p), float64(p.Units), 1, "one refresh a player a minute")
	}
	if p := s.phase("moves"); p.Units > 0 {
		add("moves", "a move (3 other instances hear it)", s.own(p), float64(p.Units), 2, "2 moves a player a minute")
	}
	if p := s.phase("ratings"); p.Units > 0 {
		w := s.own(p).minus(s.moveCost.scaled(float64(p.Units)))
		add("profiles/ratings", "a finished game of four rated", w, float64(p.Units), 1.0/(4*30), "a game of 30 minutes a player")
	}
	if p := s.phase("expiry"); p.Units > 0 {
		w := s.own(p).minus(base.rate().scaled(p.Seconds * float64(c.expiryInstances) / inst))
		// The passes ran on expiryInstances instances, or on one holding
		// a lease: the fleet makes as many a minute.
		passes, fleet := float64(c.expiryInstances), inst
		if s.expiryHolders == 1 {
			passes, fleet = 1, 1
		}
		add("expiry", "an instance's pass over the store", w, passes, fleet/n,
			fmt.Sprintf("a pass a minute by %.0f instances", fleet))
	}
	return out
}

// top names w's most frequent commands with their share.
func top(w work, k int) string {
	type kv struct {
		name string
		n    int64
	}
	var all []kv
	for name, n := range w.Commands {
		if n > 0 {
			all = append(all, kv{name, n})
		}
	}
	slices.SortFunc(all, func(a, b kv) int { return int(b.n - a.n) })
	var pos int64
	for _, e := range all {
		pos += e.n
	}
	total := float64(max(1, pos))
	var parts []string
	for _, e := range all[:min(k, len(all))] {
		parts = append(parts, fmt.Sprintf("%s %.0f%%", strings.ToUpper(e.name), 100*float64(e.n)/total))
	}
	return strings.Join(parts, ", ")
}

// totals are the per-player sums: idle (every kind but moves) and at
// play (all), in commands and bytes a minute.
func totals(us []unit) (idleC, idleB, playC, playB float64) {
	for _, u := range us {
		if u.Kind != "moves" {
			idleC += u.commandsPM()
			idleB += u.bytesPM()
		}
		playC += u.commandsPM()
		playB += u.bytesPM()
	}
	return
}

func (s *sim) report(w io.Writer) {
	c := s.cfg
	fmt.Fprintf(w, "\nsmokesim: %d players in %d rooms of four on %d instances, presence TTL %s, %d rooms moving; %s\n\n",
		c.players, c.players/4, c.instances, c.ttl, c.movers, time.Now().UTC().Format(time.RFC3339))
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "phase\tseconds\trenewal rounds\tunits\t\tcommands\tbytes\tRedis CPU s\t")
	for _, p := range s.phases {
		fmt.Fprintf(tw, "%s\t%.1f\t%d\t%d\t%s\t%d\t%d\t%.1f\t\n", p.Name, p.Seconds, p.Ticks, p.Units, p.Unit, p.Work.total(), p.Work.bytes(), p.Work.CPU)
	}
	tw.Flush()
	us := s.units()
	if s.roundsOverlap() {
		fmt.Fprintln(w, "\nthe renewal rounds ran into each other (no quiet gap): each phase's own work is taken above the idle rate")
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "kind\tunit\tcommands\tbytes\ta player's a minute\tcommands/player/min\tbytes/player/min\tmost run")
	for _, u := range us {
		fmt.Fprintf(tw, "%s\t%s\t%.1f\t%.0f\t%.4g (%s)\t%.2f\t%.0f\t%s\n", u.Kind, u.Unit, u.Commands, u.Bytes, u.Per, u.Assumed,
			u.commandsPM(), u.bytesPM(), u.Top)
	}
	tw.Flush()
	ic, ib, pc, pb := totals(us)
	fmt.Fprintf(w, "\na player, idle: %.1f commands and %.0f bytes a minute (%.3f commands a second)\n", ic, ib, ic/60)
	fmt.Fprintf(w, "a player, at play: %.1f commands and %.0f bytes a minute (%.3f commands a second)\n", pc, pb, pc/60)
	fmt.Fprintf(w, "at %d players: %.0f commands a second at play\n\n", c.players, pc/60*float64(c.players))
	for _, ch := range s.checks {
		word := "ok  "
		if !ch.OK {
			word = "FAIL"
		}
		fmt.Fprintf(w, "%s %s: %s\n", word, ch.Name, ch.Detail)
	}
}

// result is the run as JSON.
func (s *sim) result() any {
	ic, ib, pc, pb := totals(s.units())
	return map[string]any{
		"players": s.cfg.players, "instances": s.cfg.instances, "ttl_s": s.cfg.ttl.Seconds(), "movers": s.cfg.movers,
		"phases": s.phases, "units": s.units(), "checks": s.checks,
		"idle_commands_per_player_minute": ic, "idle_bytes_per_player_minute": ib,
		"play_commands_per_player_minute": pc, "play_bytes_per_player_minute": pb,
	}
}
