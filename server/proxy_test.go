package server

import (
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/pires/go-proxyproto"
)

// A balancer's header names the player; a connection without one, or from
// an address that is not a trusted balancer, never reaches the server.
func TestProxyListener(t *testing.T) {
	player := &net.TCPAddr{IP: net.ParseIP("203.0.113.7"), Port: 40000}
	tests := []struct {
		name    string
		trusted []string
		header  bool
		want    string // the RemoteAddr the server sees, "" for refused
	}{
		{"header, any source", nil, true, player.String()},
		{"no header", nil, false, ""},
		{"header from a trusted balancer", []string{"127.0.0.0/8"}, true, player.String()},
		{"header from an untrusted source", []string{"192.0.2.1"}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inner, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			l, err := ProxyListener(inner, tt.trusted, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			seen := make(chan string, 1)
			go func() {
				c, err := l.Accept()
				if err != nil {
					return
				}
				defer c.Close()
				if _, err := c.Read(make([]byte, 5)); err != nil {
					seen <- ""
					return
				}
				seen <- c.RemoteAddr().String()
			}()
			c, err := net.Dial("tcp", inner.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if tt.header {
				h := proxyproto.HeaderProxyFromAddrs(2, player, c.RemoteAddr())
				if _, err := h.WriteTo(c); err != nil {
					t.Fatal(err)
				}
			}
			io.WriteString(c, "SSH-2")
			dropped := make(chan struct{})
			go func() {
				io.Copy(io.Discard, c) // ends when the server closes the connection
				close(dropped)
			}()
			select {
			case got := <-seen:
				if got != tt.want {
					t.Errorf("server saw %q, want %q", got, tt.want)
				}
			case <-dropped:
				got := ""
				select { // served, then closed: what it saw was sent before the close
				case got = <-seen:
				default:
				}
				if got != tt.want {
					t.Errorf("connection dropped, server saw %q; want %q", got, tt.want)
				}
			case <-time.After(5 * time.Second):
				t.Errorf("connection neither served nor dropped")
			}
		})
	}
	if _, err := ProxyListener(nil, []string{"not-an-address"}, 0); err == nil || !strings.Contains(err.Error(), "not-an-address") {
		t.Errorf("bad trusted list: %v", err)
	}
}
