package server

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/smokestack/smokestack/session"
)

// Where players reach the server, for the commands it prints: `new`'s
// invite, help, the waiting room's line to share. Behind a balancer or a
// port forward that is not where it listens, so --public-addr says it;
// by default it is this machine's name and the port it listens on.

// CheckPublicAddr checks a public address as --public-addr takes it,
// "host:port" or a bare host (port 22), and returns it as host:port.
func CheckPublicAddr(addr string) (string, error) {
	addr = strings.TrimSpace(addr)
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		if strings.Count(addr, ":") > 0 && !strings.HasPrefix(addr, "[") && strings.Count(addr, ":") < 2 {
			return "", fmt.Errorf("%q is not host:port", addr)
		}
		host, port = strings.Trim(addr, "[]"), "22"
	}
	if host == "" || strings.ContainsAny(host, " \t/@") {
		return "", fmt.Errorf("%q: the host is missing or not a host name", addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "", fmt.Errorf("%q: the port is not a number from 1 to 65535", addr)
	}
	return net.JoinHostPort(host, port), nil
}

// defaultPublicAddr is this machine's name and the port l listens on.
func defaultPublicAddr(l net.Listener) string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	_, port, err := net.SplitHostPort(l.Addr().String())
	if err != nil {
		port = "22"
	}
	return net.JoinHostPort(host, port)
}

// publicAddr is where players reach the server: Config.PublicAddr, or the
// default worked out when it started serving.
func (s *Server) publicAddr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.public
}

// sshCommand is the ssh command line that runs args here.
func (s *Server) sshCommand(tty bool, args ...string) string {
	return session.SSHCommand(s.publicAddr(), tty, args...)
}
