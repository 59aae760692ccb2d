package lobby

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/tally"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/bolt"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// benchGame is a solo room whose moves the benchmark plays one by one.
type benchGame struct {
	l *Lobby
	c *Conn
}

func newBenchGame(b *testing.B, l *Lobby, seed uint64) benchGame {
	p := Player{ID: "key:bench", Name: "bench"}
	meta, err := l.Create(context.Background(), p, CreateOptions{Seats: 1, Seed: seed, HasSeed: true})
	if err != nil {
		b.Fatal(err)
	}
	c, err := l.Join(context.Background(), meta.Code, p)
	if err != nil {
		b.Fatal(err)
	}
	return benchGame{l: l, c: c}
}

// nextMove returns the move to play now, or ok=false once the game is over.
func (g benchGame) nextMove() (json.RawMessage, bool) {
	var v tally.View
	u := <-g.c.Updates()
	for {
		select {
		case u = <-g.c.Updates():
			continue
		default:
		}
		break
	}
	if err := json.Unmarshal(u.View, &v); err != nil || v.Over {
		return nil, false
	}
	raw, _ := json.Marshal(pick(v.Legal))
	return raw, true
}

// benchCommits measures the latency of Conn.Move (apply, durable append,
// push) and reports its p50 and p99.
func benchCommits(b *testing.B, st store.Store) {
	l := newLobby(b, st)
	seed := uint64(1)
	g := newBenchGame(b, l, seed)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		mv, ok := g.nextMove()
		for !ok {
			seed++
			g.c.Close()
			g = newBenchGame(b, l, seed)
			mv, ok = g.nextMove()
		}
		start := time.Now()
		if err := g.c.Move(context.Background(), mv); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkCommitBolt: move commit latency with the durable embedded store
// (every move fsynced before it is shown).
func BenchmarkCommitBolt(b *testing.B) {
	st, err := bolt.Open(filepath.Join(b.TempDir(), "rooms.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	benchCommits(b, st)
}

// BenchmarkCommitMemory is the same without durability, for the ratio.
func BenchmarkCommitMemory(b *testing.B) { benchCommits(b, mem.New()) }

// BenchmarkStoreSizePerGame plays whole solo games into a bolt file and
// reports its size per finished game.
func BenchmarkStoreSizePerGame(b *testing.B) {
	path := filepath.Join(b.TempDir(), "rooms.db")
	st, err := bolt.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	l := newLobby(b, st)
	moves := 0
	for i := range b.N {
		g := newBenchGame(b, l, uint64(i+1))
		for {
			mv, ok := g.nextMove()
			if !ok {
				break
			}
			if err := g.c.Move(context.Background(), mv); err != nil {
				b.Fatal(err)
			}
			moves++
		}
		g.c.Close()
	}
	b.StopTimer()
	st.Close()
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(fi.Size())/float64(b.N), "bytes/game")
	b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
}
