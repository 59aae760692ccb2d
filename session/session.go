// Package session holds the Bubble Tea models one SSH connection runs: the
// lobby, the game screen, spectating and replays. It knows the engine's
// views and moves and the lobby's rooms, never how either works inside.
package session

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/lobby"
)

// Start says which screen a session opens on.
type Start struct {
	// Mode is "lobby" (default), "join", "watch" or "replay".
	Mode string
	Code string // room code for join, watch and replay
}

// Config is everything a session needs from the server.
type Config struct {
	Lobby  *lobby.Lobby
	Player lobby.Player
	Start  Start
	// Theme is "default", "colorblind" or "mono".
	Theme  string
	Width  int
	Height int
}

// New returns the model for one connection.
func New(cfg Config) tea.Model {
	return placeholder{cfg: cfg}
}

// placeholder stands in until the real screens land.
type placeholder struct{ cfg Config }

func (p placeholder) Init() tea.Cmd { return nil }

func (p placeholder) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok && (k.String() == "q" || k.String() == "ctrl+c") {
		return p, tea.Quit
	}
	return p, nil
}

func (p placeholder) View() string { return "smokestack: press q to quit\n" }
