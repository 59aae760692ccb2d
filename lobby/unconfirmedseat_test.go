package lobby

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// lostAnswers is a store whose next SaveMeta, while lose is set, is made
// but answered as unconfirmed, as when Redis's answer is lost in a
// failover or too few replicas took the write.
type lostAnswers struct {
	*mem.Store
	lose atomic.Bool
}

func (s *lostAnswers) SaveMeta(ctx context.Context, m store.Meta) error {
	err := s.Store.SaveMeta(ctx, m)
	if err == nil && s.lose.Swap(false) {
		return fmt.Errorf("%w: the answer was lost", store.ErrUnconfirmed)
	}
	return err
}

// A player whose sitting down was stored but not confirmed, and who joins
// again, is back in that seat: not seated a second time, which would fill
// the room and start the game against themselves.
func TestJoinAgainAfterUnconfirmedSeat(t *testing.T) {
	ctx := context.Background()
	st := &lostAnswers{Store: mem.New()}
	l := New(Config{Store: st, Games: []Game{tallyGame()}})
	alice, bob := Player{ID: "key:alice", Name: "alice"}, Player{ID: "key:bob", Name: "bob"}
	meta, err := l.Create(ctx, alice, CreateOptions{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	st.lose.Store(true)
	if _, err := l.Join(ctx, meta.Code, alice); err == nil {
		t.Fatal("a join whose write was not confirmed succeeded")
	}
	if _, err := l.Join(ctx, meta.Code, alice); err != nil {
		t.Fatalf("alice joining again: %v", err)
	}
	if _, err := l.Join(ctx, meta.Invite(), bob); err != nil {
		t.Fatalf("bob cannot join after alice joined twice: %v", err)
	}
	m, _, err := st.Load(ctx, meta.Code, 0)
	if err != nil {
		t.Fatal(err)
	}
	if m.Seats[0].Player == m.Seats[1].Player {
		t.Errorf("both seats are %s's", m.Seats[0].Player)
	}
}
