package lobby

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// OperatorRequest is an operator's command for every instance sharing a
// store: list their sessions, close one, show an announcement, close the
// sessions a new ban covers. The lobby carries it without understanding
// it; the server answers it.
type OperatorRequest struct {
	Kind string   `json:"kind"`
	Args []string `json:"args,omitempty"`
}

// OperatorAnswer is one instance's answer to an OperatorRequest.
type OperatorAnswer struct {
	// Instance names the instance that answered ("host 10.0.0.5:2222").
	Instance string `json:"instance"`
	// Rows are what the instance lists (its sessions), N what it counts
	// (terminals shown an announcement, sessions closed).
	Rows [][]string `json:"rows,omitempty"`
	N    int        `json:"n"`
	Text string     `json:"text,omitempty"`
}

// Instances is implemented by stores shared between server instances
// (RedisStore): it carries operators' requests to every instance and
// brings their answers back, so an operator behind a balancer reaches all
// of them from whichever one they land on.
type Instances interface {
	// AskInstances sends req to every instance answering requests on
	// the store, this one included, and gathers their answers until
	// each has answered or ctx ends. asked is how many instances heard
	// the request.
	AskInstances(ctx context.Context, req OperatorRequest) (answers []OperatorAnswer, asked int, err error)
	// AnswerInstances answers every instance's requests with answer
	// until ctx ends or the store closes.
	AnswerInstances(ctx context.Context, answer func(context.Context, OperatorRequest) OperatorAnswer)
}

// Instances returns the lobby's store as Instances, when it is shared
// between instances.
func (l *Lobby) Instances() (Instances, bool) {
	i, ok := l.cfg.Store.(Instances)
	return i, ok
}

// Requests go out on redisOperators as JSON of an operatorCall; each
// instance pushes its answer onto the call's reply list, which the asker
// pops until as many answered as PUBLISH said heard it. The list, unlike a
// reply channel, cannot lose an answer that arrives before the asker
// listens; it expires on its own.
const (
	redisOperators   = redisPrefix + "operators"
	redisReplies     = redisPrefix + "operators:reply:"
	operatorReplyTTL = 30 * time.Second
)

type operatorCall struct {
	Reply   string          `json:"reply"`
	Request OperatorRequest `json:"request"`
}

// AskInstances implements Instances.
func (s *RedisStore) AskInstances(ctx context.Context, req OperatorRequest) ([]OperatorAnswer, int, error) {
	id := make([]byte, 8)
	_, _ = rand.Read(id)
	call := operatorCall{Reply: redisReplies + hex.EncodeToString(id), Request: req}
	data, err := json.Marshal(call)
	if err != nil {
		return nil, 0, fmt.Errorf("ask instances: %w", err)
	}
	heard, err := s.rdb.Publish(ctx, redisOperators, data).Result()
	if err != nil {
		return nil, 0, fmt.Errorf("ask instances: %w", err)
	}
	defer s.rdb.Del(context.WithoutCancel(ctx), call.Reply)
	var answers []OperatorAnswer
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
		var a OperatorAnswer
		if err := json.Unmarshal([]byte(res[1]), &a); err != nil {
			return answers, int(heard), fmt.Errorf("gather answers: %w", err)
		}
		answers = append(answers, a)
	}
	return answers, int(heard), nil
}

// AnswerInstances implements Instances. go-redis keeps the subscription
// up across Redis restarts; a request sent while it was down is not heard
// here, and the asker sees one answer fewer than instances.
func (s *RedisStore) AnswerInstances(ctx context.Context, answer func(context.Context, OperatorRequest) OperatorAnswer) {
	ps := s.rdb.Subscribe(ctx, redisOperators)
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
