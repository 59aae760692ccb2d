package server

import (
	"net"
	"os"
	"strings"
	"testing"
)

// TestInviteLines: every ssh command the server prints can be pasted as
// it is: `new`'s invite, help, the waiting room's line to share and a
// private room's invite. By default they name this machine and the port
// the server listens on; with a public address, that address, without
// -p when its port is 22.
func TestInviteLines(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		public string
		prefix func(addr string) string // the ssh command before its arguments
	}{
		{"default", "", func(addr string) string {
			_, port, _ := net.SplitHostPort(addr)
			return "ssh -t -p " + port + " " + host
		}},
		{"public port 22", "games.example.org:22", func(string) string { return "ssh -t games.example.org" }},
		{"public port 2200", "play.example.net:2200", func(string) string { return "ssh -t -p 2200 play.example.net" }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := startServer(t, func(s *Server) { s.cfg.PublicAddr = tc.public })
			prefix := tc.prefix(srv.addr)
			c := dialKey(t, srv.addr, "alice", newKey(t))

			r := run(t, c, "new --players 2", "")
			code := strings.TrimSpace(r.stdout)
			if want := prefix + " join " + code; !strings.Contains(r.stderr, want) {
				t.Fatalf("new says %q; want the line %q", r.stderr, want)
			}
			r = run(t, c, "new --players 2 --private", "")
			invite := strings.TrimSpace(r.stdout)
			if want := prefix + " join " + invite; !strings.Contains(r.stderr, want) || !strings.Contains(invite, "-") {
				t.Fatalf("new --private says %q; want the line %q", r.stderr, want)
			}
			plain := strings.Replace(prefix, "ssh -t", "ssh", 1)
			if help := run(t, c, "help", "").stdout; !strings.Contains(help, plain+" ") || !strings.Contains(help, prefix+" join CODE") ||
				strings.Contains(help, "PORT") || strings.Contains(help, "HOST") {
				t.Fatalf("help does not name the server as players reach it (%q):\n%s", prefix, help)
			}
			if r := run(t, c, "frobnicate", ""); !strings.Contains(r.stderr, plain+" help") {
				t.Fatalf("an unknown command's hint %q does not name the server", r.stderr)
			}

			// The waiting room shows the line to share: the code of a
			// public room, the whole invite of a private one.
			_, scr := ptySession(t, c, "join "+code, 80, 24)
			scr.waitFor(t, prefix+" join "+code)
			_, scr = ptySession(t, c, "join "+invite, 80, 24)
			scr.waitFor(t, prefix+" join "+invite)
		})
	}
}

func TestCheckPublicAddr(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"games.example.org:2222", "games.example.org:2222"},
		{"games.example.org", "games.example.org:22"},
		{" 203.0.113.7:22 ", "203.0.113.7:22"},
		{"[2001:db8::1]:2222", "[2001:db8::1]:2222"},
		{"2001:db8::1", "[2001:db8::1]:22"},
		{"games.example.org:0", ""},
		{"games.example.org:http", ""},
		{":2222", ""},
		{"a b:22", ""},
		{"user@host:22", ""},
	} {
		got, err := CheckPublicAddr(c.in)
		if c.want == "" {
			if err == nil {
				t.Errorf("CheckPublicAddr(%q) = %q; want an error", c.in, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("CheckPublicAddr(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// TestPeopleLinesNameTheServer: the lines `link`, `profile` and
// `rematch` print to paste name the server as players reach it, never
// PORT and HOST.
func TestPeopleLinesNameTheServer(t *testing.T) {
	srv := startServer(t, func(s *Server) { s.cfg.PublicAddr = "play.example.net:2200" })
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	bob := dialKey(t, srv.addr, "bob", newKey(t))
	r := run(t, alice, "link", "")
	if code := strings.TrimSpace(r.stdout); !strings.Contains(r.stderr, "ssh -p 2200 play.example.net link "+code) {
		t.Errorf("link says %q", r.stderr)
	}
	code := strings.TrimSpace(run(t, alice, "new --players 2", "").stdout)
	playBoth(t, code, alice, bob)
	if out := run(t, alice, "profile", "").stdout; !strings.Contains(out, "ssh -t -p 2200 play.example.net replay CODE") {
		t.Errorf("profile says:\n%s", out)
	}
	run(t, alice, "rematch "+code, "")
	r = run(t, bob, "rematch "+code, "")
	next := strings.TrimSpace(r.stdout)
	if !strings.Contains(r.stderr, "ssh -t -p 2200 play.example.net join "+next) || !strings.Contains(r.stderr, "ssh -p 2200 play.example.net play "+next) {
		t.Errorf("rematch says %q", r.stderr)
	}
}
