package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/engine"
)

// game is one measured game in a room of its own: two players, both on
// instance A, each in a `play` session; and on each instance a spectator's
// terminal (`watch CODE` on a PTY) and a `play CODE --watch` stream. Every
// connection is a separate SSH connection with its own key, as separate
// people would have.
type game struct {
	cfg     config
	a, b    string // instance addresses
	seed    uint64
	log     *slog.Logger
	conns   []*gossh.Client
	movers  []*playStream // by seat
	streams []*playStream // play --watch on A, then on B
	screens []*screen     // watch on A, then on B
	jitter  *rand.Rand
}

// frameInterval is how often Bubble Tea's renderer may redraw (60 fps).
const frameInterval = time.Second / 60

// budget hands out the moves --moves allows, over all rooms.
type budget struct{ left atomic.Int64 }

func (b *budget) take() bool { return b.left.Add(-1) >= 0 }

// playGame sets up one room and plays it to its end, or until the budget
// or ctx runs out, recording each move's latencies.
func playGame(ctx context.Context, g *game, moves *budget, rec *recorder) error {
	defer g.close()
	code, err := g.setUp(ctx)
	if err != nil {
		return err
	}
	rec.game()
	g.log.Info("game started", "room", code, "seed", g.seed)
	played, err := gameNamed(g.cfg.game)
	if err != nil {
		return err
	}
	name := g.cfg.bot
	if name == "" && len(played.Bots.Names) > 0 {
		name = played.Bots.Names[0] // the strongest
	}
	if played.Bots.New == nil {
		return fmt.Errorf("%s has no bots to choose the moves", played.Name())
	}
	bots := make([]engine.Bot, len(g.movers))
	for i := range bots {
		if bots[i], err = played.Bots.New(name, g.seed+uint64(i)); err != nil {
			return err
		}
	}
	for n := 0; ; n++ {
		if ctx.Err() != nil {
			return nil
		}
		over, err := g.synced(ctx, n)
		if err != nil || over {
			return err
		}
		if !moves.take() {
			return nil
		}
		if err := g.measureMove(ctx, n, bots, rec); err != nil {
			if ctx.Err() != nil {
				return nil // stopped mid-move: that move is not counted
			}
			return fmt.Errorf("room %s, move %d: %w", code, n, err)
		}
	}
}

// setUp connects everyone and returns the room's code once the game has
// started and every watcher shows it.
func (g *game) setUp(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, g.cfg.timeout)
	defer cancel()
	conn := func(addr, user string) (*gossh.Client, error) {
		c, err := dial(ctx, addr, user)
		if err == nil {
			g.conns = append(g.conns, c)
		}
		return c, err
	}
	var players [2]*gossh.Client
	for i, name := range []string{"load-alice", "load-bob"} {
		c, err := conn(g.a, name)
		if err != nil {
			return "", err
		}
		players[i] = c
	}
	out, err := runCommand(players[0], fmt.Sprintf("new --players 2 --private --seed %d", g.seed))
	if err != nil {
		return "", err
	}
	code := strings.TrimSpace(out)
	for i, addr := range []string{g.a, g.b} {
		name := []string{"A", "B"}[i]
		tc, err := conn(addr, "load-screen")
		if err != nil {
			return "", err
		}
		sc, err := startScreen(tc, "terminal@"+name, "watch "+code, g.cfg.width, g.cfg.height)
		if err != nil {
			return "", err
		}
		g.screens = append(g.screens, sc)
		jc, err := conn(addr, "load-stream")
		if err != nil {
			return "", err
		}
		st, err := startPlay(jc, "stream@"+name, "play "+code+" --watch")
		if err != nil {
			return "", err
		}
		g.streams = append(g.streams, st)
	}
	for i, c := range players {
		p, err := startPlay(c, fmt.Sprintf("seat %d@A", i), "play "+code)
		if err != nil {
			return "", err
		}
		g.movers = append(g.movers, p)
		// The second player sits down once the first holds seat 0.
		if _, err := p.await(ctx, "a seat", func(l playLine) bool { return !l.OK && l.Seat == i }); err != nil {
			return "", err
		}
	}
	if _, err := g.synced(ctx, 0); err != nil {
		return "", err
	}
	for _, s := range g.screens {
		if err := s.waitText(ctx, "watching"); err != nil {
			return "", err
		}
	}
	return code, nil
}

// synced waits until every stream shows move n, and says whether the game
// is over.
func (g *game) synced(ctx context.Context, n int) (over bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, g.cfg.timeout)
	defer cancel()
	for _, p := range slices.Concat(g.movers, g.streams) {
		if _, err := p.atVersion(ctx, n); err != nil {
			return false, err
		}
	}
	return g.streams[0].last.Room.Over, nil
}

// measureMove makes move n once every terminal has been quiet for
// --settle, and records when it reached each watcher.
func (g *game) measureMove(ctx context.Context, n int, bots []engine.Bot, rec *recorder) error {
	ctx, cancel := context.WithTimeout(ctx, g.cfg.timeout)
	defer cancel()
	seat, v, err := g.nextMover(n)
	if err != nil {
		return err
	}
	move, err := bots[seat](v)
	if err != nil {
		return fmt.Errorf("seat %d's bot: %w", seat, err)
	}
	for _, s := range g.screens {
		if err := s.quiet(ctx, g.cfg.settle); err != nil {
			return err
		}
	}
	// Terminals redraw on a 60 fps tick, the phase of which the quiet
	// wait ends in step with; a random part of a tick more makes the
	// move land anywhere within it, as a person's keypress would.
	time.Sleep(time.Duration(g.jitter.Int64N(int64(frameInterval))))
	sent := time.Now()
	for _, s := range g.screens {
		s.watch(sent)
	}
	mover := g.movers[seat]
	if err := mover.send(move); err != nil {
		return err
	}

	samples := map[string]time.Duration{}
	// The update showing the move comes first, then the ok; after the
	// last move the session ends at the update instead.
	l, err := mover.await(ctx, "ok", func(l playLine) bool { return l.OK || l.Room.Over })
	if err != nil {
		return err
	}
	if l.OK {
		samples[moverOK] = l.at.Sub(sent)
	}
	var arrived [2]time.Time
	for i, st := range g.streams {
		l, err := st.atVersion(ctx, n+1)
		if err != nil {
			return err
		}
		arrived[i] = l.at
		samples[[]string{updateSame, updateCross}[i]] = l.at.Sub(sent)
	}
	missed := 0
	for i, s := range g.screens {
		// A terminal that has drawn nothing a second after its instance
		// had the update will not draw this move.
		fctx, fcancel := context.WithDeadline(ctx, arrived[i].Add(time.Second))
		at, err := s.firstOutput(fctx)
		fcancel()
		switch {
		case err == nil:
			samples[[]string{frameSame, frameCross}[i]] = at.Sub(sent)
		case ctx.Err() != nil:
			return fmt.Errorf("%s: %w", s.name, context.Cause(ctx))
		default:
			g.log.Debug("no redraw after a move", "screen", s.name, "version", n+1)
			missed++
		}
	}
	rec.move(samples, missed)
	return nil
}

// nextMover is the first seat that may act at version n, as its own
// update says, and its view.
func (g *game) nextMover(n int) (int, json.RawMessage, error) {
	for seat, p := range g.movers {
		if slices.Contains(p.last.Room.Acting, seat) {
			return seat, p.last.View, nil
		}
	}
	return 0, nil, fmt.Errorf("nobody may move at version %d, yet the game is not over", n)
}

// close ends every session and connection of the game.
func (g *game) close() {
	for _, s := range g.screens {
		s.close()
	}
	for _, p := range slices.Concat(g.movers, g.streams) {
		p.close()
	}
	for _, c := range g.conns {
		c.Close()
	}
}
