package server

import (
	"cmp"
	"context"
	"fmt"
	"net"
	"os"
	"slices"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/session"
)

// What operators ask of every instance (admin.go): with a store shared
// between instances (Redis), the request goes to all of them and each
// answers for its own sessions; otherwise this instance answers alone.
const (
	askSessions = "sessions" // list the sessions
	askKick     = "kick"     // Args: session ID
	askAnnounce = "announce" // Args: the text
	askBanned   = "banned"   // Args: ban target, the banning session's ID
)

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

// gathered is what the instances answered an operator.
type gathered struct {
	answers []store.OperatorAnswer
	asked   int    // instances that heard the request
	note    string // how far the answers reach, for the operator
}

// askAll puts req to every instance and gathers their answers: this
// instance's at least, however the others fare.
func (s *Server) askAll(ctx context.Context, req store.OperatorRequest) gathered {
	if !s.cfg.Lobby.Shared() {
		return gathered{answers: []store.OperatorAnswer{s.answer(ctx, req)}, asked: 1}
	}
	ctx, cancel := context.WithTimeout(ctx, askWait)
	defer cancel()
	answers, asked, err := s.cfg.Lobby.AskInstances(ctx, req)
	g := gathered{answers: answers, asked: asked}
	if !slices.ContainsFunc(answers, func(a store.OperatorAnswer) bool { return a.Instance == s.instance }) {
		// Not heard here (the subscription is down): answer here anyway.
		g.answers = append(g.answers, s.answer(ctx, req))
		g.asked++
	}
	switch {
	case err != nil:
		s.log.Warn("ask the other instances", "kind", req.Kind, "err", err)
		g.note = fmt.Sprintf("the other instances could not be asked (%v): this instance only", err)
	case len(g.answers) < g.asked:
		g.note = fmt.Sprintf("%d of %d instances answered within %s; ssh to the others directly (their addresses are in their logs' listening line)", len(g.answers), g.asked, askWait)
	default:
		g.note = fmt.Sprintf("%d of %d instances answered", len(g.answers), g.asked)
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
	case askSessions:
		for _, ls := range s.sessions() {
			ls.mu.Lock()
			kind := ls.kind
			ls.mu.Unlock()
			a.Rows = append(a.Rows, []string{ls.id, ls.player.Name, cmp.Or(ls.player.Key, ls.player.ID), ls.remote, kind,
				fmt.Sprintf("%.40q", ls.cmd), now.Sub(ls.started).Round(time.Second).String(), ls.idle(now).Round(time.Second).String()})
		}
	case askKick:
		s.mu.Lock()
		ls := s.live[arg(0)]
		s.mu.Unlock()
		if ls != nil {
			ls.end(kickNote)
			a.N, a.Text = 1, fmt.Sprintf("closed session %s (%s) on %s", ls.id, ls.player.Name, s.instance)
		}
	case askAnnounce:
		for _, ls := range s.sessions() {
			if ls.show(session.Notice{Text: "announcement: " + arg(0)}) {
				a.N++
			}
		}
	case askBanned:
		s.bans.forget() // read the new ban before the next session
		target, except := arg(0), arg(1)
		ban := store.Ban{Target: target}
		for _, ls := range s.sessions() {
			if ls.id != except && ban.Covers(ls.player.Key, remoteAddr(ls.sess.RemoteAddr())) {
				ls.end(endNote(refusalLines["banned"]))
				a.N++
			}
		}
	}
	return a
}
