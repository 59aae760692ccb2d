package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/engine/factories/bot"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store"
)

// line is one line of the play protocol: an update, a chat line, an ok
// or an error.
type line struct {
	lobby.Update
	Error string          `json:"error"`
	About string          `json:"about"` // "chat" on an error answering chat
	OK    bool            `json:"ok"`
	Chat  *store.ChatLine `json:"chat"`
	raw   []byte
}

// stream is one `play` exec session.
type stream struct {
	sess  *gossh.Session
	in    io.WriteCloser
	lines chan line
}

func startPlay(t *testing.T, c *gossh.Client, cmd string) *stream {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	in, out := pipes(t, sess)
	if err := sess.Start(cmd); err != nil {
		t.Fatal(err)
	}
	st := &stream{sess: sess, in: in, lines: make(chan line, 64)}
	go func() {
		defer close(st.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var l line
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				l.Error = fmt.Sprintf("test: line is not JSON: %v: %q", err, sc.Text())
			}
			l.raw = slices.Clone(sc.Bytes())
			st.lines <- l
		}
	}()
	return st
}

func (s *stream) send(t *testing.T, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		t.Error(err)
		return
	}
	if _, err := s.in.Write(append(b, '\n')); err != nil {
		t.Errorf("send move: %v", err)
	}
}

// checkPrivacy fails if a line shows a hand other than the seat's own: the
// only "hand" key allowed anywhere is view.hand, and only for a seat.
func checkPrivacy(t *testing.T, who string, l line) {
	t.Helper()
	var doc any
	if err := json.Unmarshal(l.raw, &doc); err != nil {
		t.Errorf("%s: %v", who, err)
		return
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, child := range v {
				p := path + "." + k
				// A hand is a list of cards; a number (scores' hand) is a count.
				if _, cards := child.([]any); k == "hand" && cards && (p != ".view.hand" || l.Seat < 0) {
					t.Errorf("%s sees a hand at %s: %.300s", who, p, l.raw)
				}
				walk(p, child)
			}
		case []any:
			for _, child := range v {
				walk(path+"[]", child)
			}
		}
	}
	walk("", doc)
}

// A seeded two-player game played to its final scores through the JSON
// lines protocol over real SSH, with a spectator watching: nobody's stream
// ever shows another seat's hand.
func TestPlayGameOverSSH(t *testing.T) {
	srv := startServer(t)
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	bob := dialKey(t, srv.addr, "bob", newKey(t))
	carol := dialKey(t, srv.addr, "carol", newKey(t))

	r := run(t, alice, "new --players 2 --seed 42", "")
	if r.status != 0 {
		t.Fatalf("new: status %d, stderr %q", r.status, r.stderr)
	}
	code := strings.TrimSpace(r.stdout)
	if len(code) != lobby.CodeLength {
		t.Fatalf("new printed %q, want a room code on its own line", r.stdout)
	}
	info, err := srv.lobby.Info(t.Context(), code, lobby.Player{})
	if err != nil || info.Seed == nil || *info.Seed != 42 || !info.Practice {
		t.Fatalf("room %s: %+v, err %v; want a practice room with seed 42", code, info, err)
	}

	watcher := startPlay(t, carol, "play "+code+" --watch")
	players := []*stream{startPlay(t, alice, "play "+code), startPlay(t, bob, "play "+code)}

	// hands[seat][version] is the seat's own hand, to compare streams.
	var mu sync.Mutex
	hands := [2]map[int][]factories.Card{{}, {}}
	finals := make([]factories.View, 2)
	var wg sync.WaitGroup
	for i, p := range players {
		wg.Go(func() {
			finals[i] = playToEnd(t, fmt.Sprint("player ", i+1), p, uint64(i+1), func(seat, version int, hand []factories.Card) {
				mu.Lock()
				defer mu.Unlock()
				hands[seat][version] = hand
			})
		})
	}
	var watched []line
	watching := make(chan struct{})
	go func() {
		defer close(watching)
		for l := range watcher.lines {
			checkPrivacy(t, "spectator", l)
			watched = append(watched, l)
		}
	}()
	wg.Wait()
	select {
	case <-watching:
	case <-time.After(10 * time.Second):
		t.Error("the spectator's stream did not end with the game")
		watcher.sess.Close()
		<-watching
	}
	if t.Failed() {
		return
	}

	seats := map[int]bool{finals[0].Seat: true, finals[1].Seat: true}
	if len(seats) != 2 {
		t.Fatalf("both players got seat %d", finals[0].Seat)
	}
	for i, v := range finals {
		if v.Phase != factories.GameOver || len(v.Scores) != 2 {
			t.Fatalf("player %d's last view: phase %v, %d scores; want the game over with 2 scores", i+1, v.Phase, len(v.Scores))
		}
	}
	if !slices.Equal(finals[0].Scores, finals[1].Scores) {
		t.Errorf("the players saw different final scores: %v and %v", finals[0].Scores, finals[1].Scores)
	}
	last := watched[len(watched)-1]
	if !last.Room.Over || last.Seat != -1 {
		t.Errorf("spectator's last update: over %v, seat %d", last.Room.Over, last.Seat)
	}
	// Where both seats saw the same moment, neither saw the other's hand
	// in place of its own.
	for v, h0 := range hands[0] {
		if h1, ok := hands[1][v]; ok && len(h0) > 0 && slices.Equal(h0, h1) {
			t.Errorf("version %d: both seats were shown the hand %v", v, h0)
		}
	}
	t.Logf("room %s over after %d moves; scores %v", code, last.Version, finals[0].Scores)
}

// playToEnd plays a seat with a greedy bot through the protocol until the
// server ends the stream at game over, and returns the last view.
func playToEnd(t *testing.T, who string, s *stream, seed uint64, saw func(seat, version int, hand []factories.Card)) factories.View {
	b, err := bot.New("greedy", seed)
	if err != nil {
		t.Error(err)
		return factories.View{}
	}
	var last factories.View
	pending := false // a move is out, until its ok or error line
	refused := 0
	for l := range s.lines {
		checkPrivacy(t, who, l)
		switch {
		case l.Error != "":
			// A simultaneous work-phase move by the other seat can make
			// ours stale; choose again from the newest view.
			if refused++; refused > 5 {
				t.Errorf("%s: too many refused moves, last: %s", who, l.Error)
				s.in.Close()
				return last
			}
			pending = false
		case l.OK:
			pending = false
		case len(l.View) == 0:
			continue // waiting for the other player to sit down
		default:
			last = factories.View{}
			if err := json.Unmarshal(l.View, &last); err != nil {
				t.Errorf("%s: view: %v", who, err)
				return last
			}
			if last.Seat != l.Seat {
				t.Errorf("%s: update for seat %d carries the view of seat %d", who, l.Seat, last.Seat)
			}
			for _, p := range last.Players {
				if p.Seat == last.Seat && p.HandSize != len(last.Hand) {
					t.Errorf("%s: hand size %d but %d cards in hand", who, p.HandSize, len(last.Hand))
				}
			}
			saw(l.Seat, l.Version, last.Hand)
		}
		if !pending && len(last.Legal) > 0 {
			s.send(t, b.Choose(last))
			pending = true
		}
	}
	if err := s.sess.Wait(); err != nil {
		t.Errorf("%s: play ended with %v", who, err)
	}
	return last
}
