package redis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/lobby/store"
)

// Requests go out on redisOperators as JSON of an operatorCall; each
// instance pushes its answer onto the call's reply list, which the asker
// pops until as many answered as SPUBLISH said heard it. The channel is
// sharded: on a cluster PUBLISH counts only the listeners on the node
// that took it, SPUBLISH all of them, as they all listen on its slot's
// node. The list, unlike a reply channel, cannot lose an answer that
// arrives before the asker listens; it expires on its own.
const operatorReplyTTL = 30 * time.Second

type operatorCall struct {
	Reply   string                `json:"reply"`
	Request store.OperatorRequest `json:"request"`
}

// AskInstances implements store.Instances.
func (s *Store) AskInstances(ctx context.Context, req store.OperatorRequest) ([]store.OperatorAnswer, int, error) {
	id := make([]byte, 8)
	_, _ = rand.Read(id)
	call := operatorCall{Reply: redisReplies + hex.EncodeToString(id), Request: req}
	data, err := json.Marshal(call)
	if err != nil {
		return nil, 0, fmt.Errorf("ask instances: %w", err)
	}
	heard, err := s.rdb.SPublish(ctx, redisOperators, data).Result()
	if err != nil {
		return nil, 0, fmt.Errorf("ask instances: %w", err)
	}
	defer s.rdb.Del(context.WithoutCancel(ctx), call.Reply)
	var answers []store.OperatorAnswer
	for len(answers) < int(heard) && ctx.Err() == nil {
		// Redis blocks for whole seconds; ctx's deadline cuts it short.
		res, err := s.rdb.BLPop(ctx, time.Second, call.Reply).Result()
		switch {
		case errors.Is(err, redis.Nil):
			continue // nothing yet: look at the deadline again
		case err != nil && ctx.Err() != nil:
			return answers, int(heard), nil // out of time: what came, came
		case err != nil:
			return answers, int(heard), fmt.Errorf("gather answers: %w", err)
		}
		var a store.OperatorAnswer
		if err := json.Unmarshal([]byte(res[1]), &a); err != nil {
			return answers, int(heard), fmt.Errorf("gather answers: %w", err)
		}
		answers = append(answers, a)
	}
	return answers, int(heard), nil
}

// AnswerInstances implements store.Instances. go-redis keeps the subscription
// up across Redis restarts; a request sent while it was down is not heard
// here, and the asker sees one answer fewer than instances.
func (s *Store) AnswerInstances(ctx context.Context, answer func(context.Context, store.OperatorRequest) store.OperatorAnswer) {
	ps := s.rdb.SSubscribe(ctx, redisOperators)
	defer ps.Close()
	stop := context.AfterFunc(ctx, func() { ps.Close() })
	defer stop()
	for msg := range ps.Channel() {
		var call operatorCall
		if err := json.Unmarshal([]byte(msg.Payload), &call); err != nil || call.Reply == "" {
			continue
		}
		data, err := json.Marshal(answer(ctx, call.Request))
		if err != nil {
			continue
		}
		pipe := s.rdb.TxPipeline()
		pipe.RPush(ctx, call.Reply, data)
		pipe.PExpire(ctx, call.Reply, operatorReplyTTL)
		_, _ = pipe.Exec(ctx) // the asker counts the missing answer
	}
}
