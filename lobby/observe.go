package lobby

import "github.com/smokestack/smokestack/lobby/room"

// observer is the configured Observer, or one that ignores everything.
func (l *Lobby) observer() Observer {
	if l.cfg.Observer == nil {
		return room.NoObserver{}
	}
	return l.cfg.Observer
}
