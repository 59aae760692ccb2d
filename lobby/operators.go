package lobby

import (
	"context"

	"github.com/smokestack/smokestack/lobby/store"
)

// Shared reports whether other server instances share the lobby's store,
// so that operators' requests reach them through AskInstances.
func (l *Lobby) Shared() bool { return l.cluster != nil }

// AskInstances sends req to every instance sharing the store, this one
// included, and gathers their answers until each has answered or ctx ends;
// asked is how many instances heard it. Alone (not Shared), nobody hears
// it: no answers, asked 0.
func (l *Lobby) AskInstances(ctx context.Context, req store.OperatorRequest) (answers []store.OperatorAnswer, asked int, err error) {
	if l.cluster == nil {
		return nil, 0, nil
	}
	return l.cluster.AskInstances(ctx, req)
}

// AnswerInstances answers every instance's requests with answer until ctx
// ends or the store closes; alone (not Shared), it returns at once.
func (l *Lobby) AnswerInstances(ctx context.Context, answer func(context.Context, store.OperatorRequest) store.OperatorAnswer) {
	if l.cluster != nil {
		l.cluster.AnswerInstances(ctx, answer)
	}
}
