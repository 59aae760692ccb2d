package session

import (
	"net"
	"strings"
)

// SSHCommand is the command line a player types to reach the server at
// addr ("host:port", as players reach it) and run args there: "ssh -t -p
// 2222 games.example.org join K7PXMA". The port is left out when it is
// SSH's own, 22; tty asks for a terminal (-t), which the game screens
// need when a command is given. An addr that is not host:port is used
// as the host.
func SSHCommand(addr string, tty bool, args ...string) string {
	parts := []string{"ssh"}
	if tty {
		parts = append(parts, "-t")
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		host, port = addr, "22"
	}
	if port != "22" {
		parts = append(parts, "-p", port)
	}
	parts = append(parts, host)
	return strings.Join(append(parts, args...), " ")
}

// joinCommand is the line to share for others to sit at the room with
// invite (its code, or a private room's invite), or "" when the session
// does not know the server's address.
func (e *env) joinCommand(invite string) string {
	if e.publicAddr == "" {
		return ""
	}
	return SSHCommand(e.publicAddr, true, "join", invite)
}
