package server

import (
	"strings"

	"github.com/smokestack/smokestack/session"
	linemode "github.com/smokestack/smokestack/session/line"
)

// Lines runs the line mode (session/line) on the session: on its
// terminal, which it echoes, or on its plain input and output. The
// input is the same paced, bounded input a screen reads, and the
// session is watched for inactivity as a screen is.
func (c *call) Lines(start session.Start) error {
	_, _, isPty := c.sess.Pty()
	notices := make(chan string, 4)
	c.live.setNotify(func(n session.Notice) {
		select {
		case notices <- n.Text:
		default: // a player told several at once reads the newest later
		}
	})
	c.live.idleWatched.Store(true)
	defer func() {
		c.live.idleWatched.Store(false)
		c.live.setNotify(nil)
	}()
	err := linemode.Run(c.ctx, linemode.Config{
		Lobby: c.s.cfg.Lobby, Games: c.s.cfg.Screens, Player: c.player, Start: start,
		Lang: c.live.printer().Tag(), OnLang: c.live.setLang,
		In: c.s.input(c.ctx, c), Out: c.sess, Echo: isPty, MaxLine: c.s.cfg.Limits.MaxLine,
		Notices: notices,
	})
	if note, ok := noteFor(c.ctx); ok {
		// Said after the mode's last line, as a screen's end is.
		_, _ = c.sess.Write([]byte(note.In(c.live.printer()) + "\n"))
	}
	return err
}

// dumbTerm reports whether a terminal of this TERM cannot address its
// cursor, so cannot show the screen: none named, "dumb" (Emacs' shell,
// many serial consoles and screen-reader setups), or one of the old
// hardcopy and glass terminals' names.
func dumbTerm(term string) bool {
	switch strings.ToLower(strings.TrimSpace(term)) {
	case "", "dumb", "unknown", "emacs", "tty33", "tty43", "glasstty", "lpr", "printer":
		return true
	}
	return false
}
