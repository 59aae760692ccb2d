package server

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"net/netip"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/session"
)

// Operators are the keys allowed the admin commands: fingerprint to the
// name the operators file gives (its comment).
type Operators map[string]string

// LoadOperators reads an authorized_keys file: one key a line, options
// ignored, # comments and blank lines skipped.
func LoadOperators(path string) (Operators, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("operators: %w", err)
	}
	ops := Operators{}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, comment, _, _, err := gossh.ParseAuthorizedKey([]byte(line))
		if err != nil {
			return nil, fmt.Errorf("operators %s line %d: %w", path, n, err)
		}
		if comment == "" {
			comment = "operator"
		}
		ops[gossh.FingerprintSHA256(key)] = comment
	}
	return ops, nil
}

// isOperator reports whether p is an operator. p comes from checkIdentity,
// so p.Key is the fingerprint of the key that signed the handshake: a key
// only offered never counts, nor does another key linked to the same
// profile.
func (s *Server) isOperator(p lobby.Player) bool {
	return !p.Guest && p.Key != "" && s.cfg.Operators[p.Key] != ""
}

// command finds the command called name, as p may see it: the operators'
// commands do not exist for anyone else.
func (s *Server) command(name string, p lobby.Player) (command, bool) {
	cmd, ok := findCommand(name)
	if !ok || cmd.operator && !s.isOperator(p) {
		return command{}, false
	}
	return cmd, true
}

// liveSession is one open session, as operators and shutdown see it.
type liveSession struct {
	id      string
	player  lobby.Player
	remote  string
	cmd     string
	started time.Time
	sess    ssh.Session
	ctx     context.Context // ends with the session; see Server.sessionContext
	cancel  context.CancelCauseFunc
	done    chan struct{} // closed when the session is over
	// lastInput is when the client last typed (Unix nanoseconds).
	lastInput atomic.Int64
	// idleWatched is set while a terminal's program runs, for watchIdle;
	// warned, which only watchIdle touches, while its player is warned.
	idleWatched atomic.Bool
	warned      bool

	mu     sync.Mutex
	kind   string               // terminal, play or command, once known
	notify func(session.Notice) // shows a notice, while a terminal runs
	// window is the newest window size the client sent; resize takes
	// each new one while a terminal's program runs (see setWindow).
	window     ssh.Window
	hasWindow  bool
	resize     func(ssh.Window)
	pending    bool // window is not yet handed to resize
	delivering bool // deliverWindows is running
}

// endGrace is how long an ended session has to say goodbye before its
// connection is closed under it (a client that stopped reading would
// otherwise keep it forever).
const endGrace = 5 * time.Second

// end ends the session, telling its player note.
func (ls *liveSession) end(note endNote) {
	ls.cancel(note)
	time.AfterFunc(endGrace, func() {
		select {
		case <-ls.done:
		default:
			if c, ok := ls.sess.Context().Value(ssh.ContextKeyConn).(gossh.Conn); ok {
				c.Close()
			}
		}
	})
}

func (ls *liveSession) touch() { ls.lastInput.Store(time.Now().UnixNano()) }

func (ls *liveSession) idle(now time.Time) time.Duration {
	return now.Sub(time.Unix(0, ls.lastInput.Load()))
}

func (ls *liveSession) setKind(kind string) {
	ls.mu.Lock()
	ls.kind = kind
	ls.mu.Unlock()
}

func (ls *liveSession) setNotify(f func(session.Notice)) {
	ls.mu.Lock()
	ls.notify = f
	ls.mu.Unlock()
}

// show shows n on the session's screen, if it has one.
func (ls *liveSession) show(n session.Notice) bool {
	ls.mu.Lock()
	f := ls.notify
	ls.mu.Unlock()
	if f != nil {
		f(n)
	}
	return f != nil
}

func (s *Server) register(sess ssh.Session, p lobby.Player) *liveSession {
	ls := &liveSession{id: randomID()[:8], player: p, remote: sess.RemoteAddr().String(), cmd: sess.RawCommand(),
		started: time.Now(), sess: sess, done: make(chan struct{})}
	ls.touch()
	if _, winch, ok := sess.Pty(); ok {
		go ls.followWindow(winch)
	}
	ls.ctx, ls.cancel = s.sessionContext(sess)
	s.mu.Lock()
	s.live[ls.id] = ls
	s.bySession[sess] = ls
	s.mu.Unlock()
	return ls
}

// followWindow takes every window size the client sends for as long as
// the session's requests last; a resize counts as input. Nobody reading
// them would wedge the whole connection: the SSH library hands each size
// over before it reads the connection's next packet.
func (ls *liveSession) followWindow(winch <-chan ssh.Window) {
	for win := range winch {
		ls.touch()
		ls.setWindow(win)
	}
}

// setWindow records the newest window size and hands it to the
// terminal's program, if one runs, without waiting for it: sizes that
// come while the program takes one are not queued, only the newest is
// handed on, so a storm draws once.
func (ls *liveSession) setWindow(win ssh.Window) {
	ls.mu.Lock()
	ls.window, ls.hasWindow, ls.pending = win, true, true
	start := ls.resize != nil && !ls.delivering
	ls.delivering = ls.delivering || start
	ls.mu.Unlock()
	if start {
		go ls.deliverWindows()
	}
}

// deliverWindows hands the newest size to resize until none is pending;
// one runs at a time, so sizes arrive in order.
func (ls *liveSession) deliverWindows() {
	for {
		ls.mu.Lock()
		f, win := ls.resize, ls.window
		if !ls.pending || f == nil {
			ls.delivering = false
			ls.mu.Unlock()
			return
		}
		ls.pending = false
		ls.mu.Unlock()
		f(win)
	}
}

// latestWindow is the newest window size the client sent, or initial
// when none came yet.
func (ls *liveSession) latestWindow(initial ssh.Window) ssh.Window {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.hasWindow {
		return ls.window
	}
	return initial
}

// watchWindow has f take every new window size from now on (nil stops
// it). shown is the size the program was started with: a newer one that
// came before f is handed to it at once.
func (ls *liveSession) watchWindow(shown ssh.Window, f func(ssh.Window)) {
	ls.mu.Lock()
	ls.resize = f
	ls.pending = ls.hasWindow && ls.window != shown
	start := f != nil && ls.pending && !ls.delivering
	ls.delivering = ls.delivering || start
	ls.mu.Unlock()
	if start {
		go ls.deliverWindows()
	}
}

func (s *Server) unregister(ls *liveSession) {
	s.mu.Lock()
	delete(s.live, ls.id)
	delete(s.bySession, ls.sess)
	s.mu.Unlock()
	close(ls.done)
	ls.cancel(nil)
}

// liveOf returns the registered session for sess.
func (s *Server) liveOf(sess ssh.Session) *liveSession {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bySession[sess]
}

// terminals appends the sessions whose terminal programs are running to
// out, in no order.
func (s *Server) terminals(out []*liveSession) []*liveSession {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ls := range s.live {
		if ls.idleWatched.Load() {
			out = append(out, ls)
		}
	}
	return out
}

// sessions returns the open sessions, oldest first.
func (s *Server) sessions() []*liveSession {
	s.mu.Lock()
	out := make([]*liveSession, 0, len(s.live))
	for _, ls := range s.live {
		out = append(out, ls)
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].started.Before(out[j].started) })
	return out
}

// banCache is the bans in force, read from the store at most every
// banRefresh, so a flood of connections does not become a flood of store
// reads; a ban set here takes effect at once, one set on another instance
// within banRefresh.
type banCache struct {
	lobby *lobby.Lobby
	fail  func(error)

	mu   sync.Mutex
	list []store.Ban
	read time.Time
}

const banRefresh = 5 * time.Second

// covers reports whether a ban in force covers key or addr.
func (b *banCache) covers(ctx context.Context, key string, addr netip.Addr) bool {
	now := time.Now()
	for _, ban := range b.current(ctx, now) {
		if ban.Active(now) && ban.Covers(key, addr) {
			return true
		}
	}
	return false
}

func (b *banCache) current(ctx context.Context, now time.Time) []store.Ban {
	b.mu.Lock()
	list, fresh := b.list, now.Sub(b.read) < banRefresh
	if !fresh {
		b.read = now // one reader at a time; the others use what there is
	}
	b.mu.Unlock()
	if fresh {
		return list
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	bans, err := b.lobby.Bans(ctx, now)
	if err != nil {
		b.fail(err)
		return list
	}
	b.mu.Lock()
	b.list = bans
	b.mu.Unlock()
	return bans
}

// forget makes the next check read the store.
func (b *banCache) forget() {
	b.mu.Lock()
	b.read = time.Time{}
	b.mu.Unlock()
}

const adminUsage = `admin sessions                      the sessions open, on every instance
admin rooms                         every room, private and finished ones too
admin kick SESSION                  close a session (its seat is kept), on whichever instance
admin ban KEY-FINGERPRINT|ADDRESS[/BITS] [--for 24h]
                                    keep a key or an address out, and close its sessions, on every instance
admin unban KEY-FINGERPRINT|ADDRESS[/BITS]
admin end CODE                      end a room's game for good
admin announce TEXT                 show TEXT on every terminal, on every instance

With a Redis shared between instances, sessions, kick, ban and announce
reach every instance through it, and say how many answered.`

// admin runs an operator's command. Every action is logged with who did it.
func (s *Server) admin(c *call) error {
	if len(c.args) == 0 {
		return errUsage{"missing what to do"}
	}
	sub, args := c.args[0], c.args[1:]
	op := s.cfg.Operators[c.player.Key]
	s.log.Info("admin", "by", op, "key", c.player.Key, "remote", c.sess.RemoteAddr().String(),
		"action", sub, "args", strings.Join(args, " "))
	one := func() (string, error) {
		if len(args) != 1 {
			return "", errUsage{fmt.Sprintf("admin %s takes one argument", sub)}
		}
		return args[0], nil
	}
	switch sub {
	case "sessions":
		return s.adminSessions(c)
	case "rooms":
		rooms, err := s.cfg.Lobby.AllRooms(c.ctx)
		if err != nil {
			return err
		}
		return roomTable(c.out, rooms)
	case "kick":
		id, err := one()
		if err != nil {
			return err
		}
		g := s.askAll(c.ctx, store.OperatorRequest{Kind: askKick, Args: []string{id}})
		for _, a := range g.answers {
			if a.N > 0 {
				fmt.Fprintln(c.out, a.Text)
				return nil
			}
		}
		if g.note != "" {
			return fmt.Errorf("no session %q on any instance that answered (%s): see admin sessions", id, g.note)
		}
		return fmt.Errorf("no session %q here: see admin sessions", id)
	case "ban":
		return s.adminBan(c, args, op)
	case "unban":
		arg, err := one()
		if err != nil {
			return err
		}
		return s.adminUnban(c, arg)
	case "end":
		code, err := one()
		if err != nil {
			return err
		}
		if err := s.cfg.Lobby.EndByOperator(c.ctx, code, "ended by an operator"); err != nil {
			return err
		}
		fmt.Fprintf(c.out, "room %s ended\n", lobby.NormalizeCode(code))
		return nil
	case "announce":
		text := strings.TrimSpace(strings.Join(args, " "))
		if text == "" {
			return errUsage{"missing the TEXT to announce"}
		}
		g := s.askAll(c.ctx, store.OperatorRequest{Kind: askAnnounce, Args: []string{text}})
		n := 0
		for _, a := range g.answers {
			n += a.N
		}
		fmt.Fprintf(c.out, "shown on %d terminal(s)\n", n)
		if g.note != "" {
			fmt.Fprintln(c.out, g.note)
		}
		return nil
	}
	return errUsage{fmt.Sprintf("no admin command %q", sub)}
}

// adminSessions lists the sessions of every instance that answers, each
// with the instance it is on.
func (s *Server) adminSessions(c *call) error {
	g := s.askAll(c.ctx, store.OperatorRequest{Kind: askSessions})
	tw := tabwriter.NewWriter(c.out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tNAME\tKEY\tREMOTE\tKIND\tCOMMAND\tAGE\tIDLE\tINSTANCE")
	for _, a := range g.answers {
		for _, row := range a.Rows {
			fmt.Fprintln(tw, strings.Join(append(row, a.Instance), "\t"))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if g.note != "" {
		fmt.Fprintln(c.out, g.note)
	}
	return nil
}

func (s *Server) adminBan(c *call, args []string, op string) error {
	fs := flag.NewFlagSet("admin ban", flag.ContinueOnError)
	lasts := fs.Duration("for", 0, "")
	sub := *c
	sub.args = args
	pos, err := sub.flags(fs, 1, "KEY-FINGERPRINT or ADDRESS")
	if err != nil {
		return err
	}
	target, err := store.BanTarget(pos[0])
	if err != nil {
		return errUsage{err.Error()}
	}
	if *lasts < 0 {
		return errUsage{"--for cannot be negative"}
	}
	now := time.Now().UTC()
	b := store.Ban{Target: target, By: op + " (" + c.player.Key + ")", At: now}
	if *lasts > 0 {
		b.Until = now.Add(*lasts)
	}
	if err := s.cfg.Lobby.Ban(c.ctx, b); err != nil {
		return err
	}
	s.bans.forget()
	g := s.askAll(c.ctx, store.OperatorRequest{Kind: askBanned, Args: []string{target, c.live.id}})
	kicked := 0
	for _, a := range g.answers {
		kicked += a.N
	}
	until := "until lifted"
	if !b.Until.IsZero() {
		until = "until " + b.Until.Format(time.RFC3339)
	}
	fmt.Fprintf(c.out, "banned %s %s; closed %d session(s)\n", target, until, kicked)
	if g.note != "" {
		fmt.Fprintln(c.out, g.note)
	}
	return nil
}

func (s *Server) adminUnban(c *call, arg string) error {
	target, err := store.BanTarget(arg)
	if err != nil {
		return errUsage{err.Error()}
	}
	found, err := s.cfg.Lobby.Unban(c.ctx, target)
	if err != nil {
		return err
	}
	s.bans.forget()
	if !found {
		return fmt.Errorf("%s was not banned", target)
	}
	fmt.Fprintf(c.out, "unbanned %s\n", target)
	return nil
}

// maxCommand bounds an exec command line; real ones are short.
const maxCommand = 1024

// sessionKind names a session's kind in the sessions metric.
func sessionKind(cmd command) string {
	switch {
	case cmd.terminal:
		return "terminal"
	case cmd.name == "play":
		return "play"
	}
	return "command"
}
