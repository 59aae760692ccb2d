package room

import (
	"errors"
	"testing"

	"github.com/smokestack/smokestack/engine"
)

// TestUnconfirmedSaysItsOwnWords: a move the store could not confirm is
// ErrUnavailable to code that asks (errors.Is), and to the screens that
// word it (errors.As an engine.Refusal) its own message, not the
// Unavailable service's.
func TestUnconfirmedSaysItsOwnWords(t *testing.T) {
	if !errors.Is(ErrUnconfirmed, ErrUnavailable) {
		t.Error("an unconfirmed move is not ErrUnavailable")
	}
	var r *engine.Refusal
	if !errors.As(ErrUnconfirmed, &r) || r.ID != "lobby.unconfirmed" || r.Text != ErrUnconfirmed.Error() {
		t.Errorf("its refusal: %+v", r)
	}
	if !errors.As(ErrUnavailable, &r) || r.ID != "lobby.unavailable" {
		t.Errorf("the unavailable service's refusal: %+v", r)
	}
}
