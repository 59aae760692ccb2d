package server

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/server/cmd"
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

// askWait bounds how long an operator waits for the other instances.
const askWait = 3 * time.Second

// instanceName names this instance in operators' answers: its host and
// the address it listens on, to reach it by.
func instanceName(l net.Listener) string {
	host, err := os.Hostname()
	if err != nil {
		host = "?"
	}
	return host + " " + l.Addr().String()
}

// answerOperators answers every instance's operator requests until ctx
// ends, when the lobby's store is shared between instances.
func (s *Server) answerOperators(ctx context.Context) {
	s.cfg.Lobby.AnswerInstances(ctx, s.answer)
}

// askAll puts req to every instance and gathers their answers: this
// instance's at least, however the others fare.
func (s *Server) askAll(ctx context.Context, req store.OperatorRequest) cmd.Answers {
	if !s.cfg.Lobby.Shared() {
		return cmd.Answers{List: []store.OperatorAnswer{s.answer(ctx, req)}}
	}
	ctx, cancel := context.WithTimeout(ctx, askWait)
	defer cancel()
	answers, asked, err := s.cfg.Lobby.AskInstances(ctx, req)
	if !slices.ContainsFunc(answers, func(a store.OperatorAnswer) bool { return a.Instance == s.instance }) {
		// Not heard here (the subscription is down): answer here anyway.
		answers = append(answers, s.answer(ctx, req))
		asked++
	}
	g := cmd.Answers{List: answers}
	switch {
	case err != nil:
		s.log.Warn("ask the other instances", "kind", req.Kind, "err", err)
		g.Note = fmt.Sprintf("the other instances could not be asked (%v): this instance only", err)
	case len(answers) < asked:
		g.Note = fmt.Sprintf("%d of %d instances answered within %s; ssh to the others directly (their addresses are in their logs' listening line)", len(answers), asked, askWait)
	default:
		g.Note = fmt.Sprintf("%d of %d instances answered", len(answers), asked)
	}
	return g
}

// answer answers one operator request for this instance's sessions.
func (s *Server) answer(_ context.Context, req store.OperatorRequest) store.OperatorAnswer {
	a := store.OperatorAnswer{Instance: s.instance}
	arg := func(i int) string {
		if i < len(req.Args) {
			return req.Args[i]
		}
		return ""
	}
	now := time.Now()
	switch req.Kind {
	case cmd.AskSessions:
		for _, ls := range s.sessions() {
			ls.mu.Lock()
			kind := ls.kind
			ls.mu.Unlock()
			a.Rows = append(a.Rows, []string{ls.id, ls.player.Name, cmp.Or(ls.player.Key, ls.player.ID), ls.remote, kind,
				fmt.Sprintf("%.40q", ls.cmd), now.Sub(ls.started).Round(time.Second).String(), ls.idle(now).Round(time.Second).String()})
		}
	case cmd.AskKick:
		s.mu.Lock()
		ls := s.live[arg(0)]
		s.mu.Unlock()
		if ls != nil {
			ls.end(kickNote)
			a.N, a.Text = 1, fmt.Sprintf("closed session %s (%s) on %s", ls.id, ls.player.Name, s.instance)
		}
	case cmd.AskAnnounce:
		for _, ls := range s.sessions() {
			if ls.show(session.Notice{Text: ls.printer().T("server.note.announcement", "Text", arg(0))}) {
				a.N++
			}
		}
	case cmd.AskBanned:
		s.bans.forget() // read the new ban before the next session
		target, except := arg(0), arg(1)
		ban := store.Ban{Target: target}
		for _, ls := range s.sessions() {
			if ls.id != except && ban.Covers(ls.player.Key, remoteAddr(ls.sess.RemoteAddr())) {
				ls.end(bannedNote)
				a.N++
			}
		}
	}
	return a
}
