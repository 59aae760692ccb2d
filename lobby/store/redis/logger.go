package redis

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/internal/ratelog"
)

// clientLogEvery is how often one kind of go-redis complaint is logged
// while it keeps coming: with Redis away its pool complains on every
// dial, many times a second.
const clientLogEvery = 10 * time.Second

// LogTo sends go-redis's own lines (a pool that cannot dial: a warning;
// a sentinel naming a new primary: news) to log, one line per
// burst of each kind with a count of the rest, instead of the raw
// "redis: 2026/…" lines go-redis prints to stderr. go-redis keeps one
// logger for the whole process, so the last call wins.
func LogTo(log *slog.Logger) { redis.SetLogger(NewClientLog(log, clientLogEvery)) }

// ClientLog is go-redis's logger as a ratelog: a kind is the format of
// the line, which go-redis writes once per place it complains from.
type ClientLog struct{ log *ratelog.Logger }

// NewClientLog logs each kind at most once per every, with counts.
func NewClientLog(log *slog.Logger, every time.Duration) *ClientLog {
	return &ClientLog{log: ratelog.New(log, every)}
}

// Printf implements go-redis's internal.Logging.
func (c *ClientLog) Printf(_ context.Context, format string, v ...any) {
	msg := strings.TrimPrefix(fmt.Sprintf(format, v...), "redis: ")
	level := slog.LevelWarn
	if strings.HasPrefix(format, "sentinel: ") {
		level = slog.LevelInfo // the sentinels' news: a new primary, say
	}
	c.log.Log(level, format, "redis client", "said", msg)
}

// Holding reports whether a burst is still being counted (ratelog).
func (c *ClientLog) Holding() bool { return c.log.Holding() }
