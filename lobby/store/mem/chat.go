package mem

import (
	"context"
	"slices"

	"github.com/smokestack/smokestack/lobby/store"
)

// AddChat implements store.Chats.
func (s *Store) AddChat(_ context.Context, code string, line store.ChatLine, keep int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.chat == nil {
		s.chat = map[string][]store.ChatLine{}
	}
	s.chat[code] = newest(append(s.chat[code], line), keep)
	return nil
}

// Chat implements store.Chats.
func (s *Store) Chat(_ context.Context, code string, n int) ([]store.ChatLine, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return newest(s.chat[code], n), nil
}

// DeleteChat implements store.Chats.
func (s *Store) DeleteChat(_ context.Context, code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.chat, code)
	return nil
}

// newest returns the last n lines (all when n is 0), in a slice of their own.
func newest(lines []store.ChatLine, n int) []store.ChatLine {
	if n > 0 && len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return slices.Clone(lines)
}
