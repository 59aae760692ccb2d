package server

import (
	"log/slog"
	"sync"
	"time"
)

// suspects remembers the keys and addresses refused lately for what a
// flood or a guesser runs into, so that their sessions' start and end are
// logged once per burst with a count (like the refusals) instead of a
// line each: a guesser cut off and coming back on new connections would
// otherwise write two lines per attempt, the very flood the refusals'
// own rate-limiting keeps out of the log.
type suspects struct {
	mu    sync.Mutex
	until map[string]time.Time // "key:…" or "addr:…" -> when it is forgotten
	swept time.Time
}

// suspectFor is how long a refusal makes its key and address suspect;
// each new refusal starts it again.
const suspectFor = 10 * time.Minute

// maxSuspects bounds the memory: past it, names not yet known are not
// remembered (their sessions are logged one by one, as before).
const maxSuspects = 100_000

// suspectReasons are the refusals that make a key or address suspect:
// guessing and flooding, not a player idle too long or typing fast.
var suspectReasons = map[string]bool{
	"conns_per_addr": true, "conn_rate": true, "conns_per_key": true, "sessions_per_conn": true,
	"session_rate": true, "refused_sessions": true, "banned": true, "no_session": true, "identity": true,
	"input_buffer": true, "conn_input_buffer": true,
	"lookup_backoff": true, "lookup_limit": true, "rooms_per_hour": true, "open_rooms": true,
	"profiles_per_hour": true,
}

// note remembers key and addr (either may be empty) after a refusal for
// reason, if it is one that makes them suspect.
func (s *suspects) note(reason, key, addr string, now time.Time) {
	if !suspectReasons[reason] {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.until == nil {
		s.until = map[string]time.Time{}
	}
	s.sweep(now)
	for _, name := range []string{suspectName("key:", key), suspectName("addr:", addr)} {
		if _, known := s.until[name]; name != "" && (known || len(s.until) < maxSuspects) {
			s.until[name] = now.Add(suspectFor)
		}
	}
}

// suspect reports whether key or addr was refused lately.
func (s *suspects) suspect(key, addr string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, name := range []string{suspectName("key:", key), suspectName("addr:", addr)} {
		if name != "" && now.Before(s.until[name]) {
			return true
		}
	}
	return false
}

func suspectName(kind, v string) string {
	if v == "" {
		return ""
	}
	return kind + v
}

// sweep forgets lapsed names once a minute. The caller holds s.mu.
func (s *suspects) sweep(now time.Time) {
	if now.Sub(s.swept) < time.Minute {
		return
	}
	s.swept = now
	for name, until := range s.until {
		if !now.Before(until) {
			delete(s.until, name)
		}
	}
}

// logSession logs a session's start or end: at once, or once per burst
// with a count when its key or address was refused lately.
func (s *Server) logSession(msg, key, addr string, attrs ...any) {
	if s.suspects.suspect(key, addr, time.Now()) {
		s.refusal.Log(slog.LevelInfo, msg+" (refused lately)", msg, append(attrs, "refused_lately", true)...)
		return
	}
	s.log.Info(msg, attrs...)
}
