// Package ratelog logs events that can come in floods (connections
// refused, rooms not found) once per burst: the first of a kind is logged
// at once, the rest of the burst as one line with their count when it
// ends, so a flood cannot fill a disk and nothing goes uncounted.
package ratelog

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Logger holds back repeats of an event kind for an interval.
type Logger struct {
	log   *slog.Logger
	every time.Duration

	mu    sync.Mutex
	kinds map[string]*burst
}

// burst is one kind's events within the current interval.
type burst struct {
	level    slog.Level
	msg      string
	attrs    []any // the last held-back event's
	held     int   // events held back since the last line
	interval *time.Timer
}

// New logs to log, each kind at most once per every (plus one summary line
// per interval while the kind keeps coming).
func New(log *slog.Logger, every time.Duration) *Logger {
	return &Logger{log: log, every: every, kinds: map[string]*burst{}}
}

// Log logs msg with attrs unless an event of the same kind was logged less
// than an interval ago; then it is counted, and the count is logged with
// the last such event's attrs when the interval ends.
func (l *Logger) Log(level slog.Level, kind, msg string, attrs ...any) {
	l.mu.Lock()
	b, ok := l.kinds[kind]
	if ok {
		b.held++
		b.level, b.msg, b.attrs = level, msg, attrs
		l.mu.Unlock()
		return
	}
	b = &burst{}
	l.kinds[kind] = b
	b.interval = time.AfterFunc(l.every, func() { l.endInterval(kind, b) })
	l.mu.Unlock()
	l.log.Log(context.Background(), level, msg, attrs...)
}

// Holding reports whether an interval is running for any kind: false once
// every burst has been summed up and a quiet interval has followed it, so
// everything logged so far is out. Tests wait on it instead of for a time.
func (l *Logger) Holding() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.kinds) > 0
}

// endInterval logs what the interval held back. A kind still coming gets
// another interval; a quiet one is forgotten, so its next event is logged
// at once.
func (l *Logger) endInterval(kind string, b *burst) {
	l.mu.Lock()
	held, level, msg, attrs := b.held, b.level, b.msg, b.attrs
	b.held = 0
	if held == 0 {
		delete(l.kinds, kind)
	} else {
		b.interval.Reset(l.every)
	}
	l.mu.Unlock()
	if held > 0 {
		l.log.Log(context.Background(), level, msg, append(attrs, "repeated", held, "within", l.every)...)
	}
}
