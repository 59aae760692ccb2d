// Package players is who plays here: profiles (a name and the SSH keys
// that play as it), made on a key's first need; names, unique however
// they are written; keys linked to a profile with one-time codes; and
// ratings and the records of finished games. The lobby asks it who a key
// is and records its finished rooms through it; it knows no room.
package players

import (
	"log/slog"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// Store keeps profiles and records; store.Store is one.
type Store interface {
	store.Profiles
	store.Ratings
}

// Config sets up Players.
type Config struct {
	Store  Store
	Now    func() time.Time
	Logger *slog.Logger
	// Unavailable words a failed store call for the player (the game
	// service is unavailable), having it logged and counted.
	Unavailable func(what string, err error) error
	// Fault logs and counts a failed store call nobody waits on.
	Fault func(what string, err error, attrs ...any)
}

// Players keeps the players of one server.
type Players struct {
	cfg Config
}

// New returns the players kept in cfg.Store.
func New(cfg Config) *Players { return &Players{cfg: cfg} }
