package server

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/internal/redistest"
)

// Behind a balancer an operator lands on one instance: with a shared
// Redis, admin sessions, announce, kick and ban reach every instance, and
// say how many answered; an instance that heard and did not answer is
// counted, and the operator told how to reach it.
// operatorsChannel carries operators' requests (lobby/store/redis/keys.go).
const operatorsChannel = "smokestack:{operators}:requests"

func TestAdminAcrossInstances(t *testing.T) {
	r := redistest.Start(t)
	op, bobKey := newKey(t), newKey(t)
	a := startRedisInstance(t, r.URL, withOperators(io.Discard, op))
	b := startRedisInstance(t, r.URL, withOperators(io.Discard, op))
	rdb := redis.NewClient(mustParseURL(t, r.URL))
	defer rdb.Close()
	waitUntil(t, "both instances to listen for operators", func() bool {
		n, err := rdb.PubSubShardNumSub(t.Context(), operatorsChannel).Result()
		return err == nil && n[operatorsChannel] == 2
	})
	admin := dialKey(t, a.addr, "ops", op)
	bob := dialKey(t, b.addr, "bob", bobKey)
	bobFP := gossh.FingerprintSHA256(bobKey.PublicKey())

	code := strings.TrimSpace(run(t, bob, "new --players 2", "").stdout)
	st := startPlay(t, bob, "play "+code)
	<-st.lines
	_, scr := ptySession(t, bob, "", 100, 30)
	scr.waitFor(t, "smokestack")

	sessions := run(t, admin, "admin sessions", "")
	playID, row := playSession(sessions.stdout, bobFP)
	if !strings.HasSuffix(row, " "+b.addr) {
		t.Errorf("bob's session is not shown on B (%s): %q", b.addr, row)
	}
	if playID == "" || !strings.Contains(sessions.stdout, "2 of 2 instances answered") {
		t.Fatalf("admin sessions on A does not list bob's play session on B, from both instances:\n%s", sessions.stdout)
	}

	if r := run(t, admin, "admin announce back in five minutes", ""); !strings.Contains(r.stdout, "shown on 1 terminal(s)") ||
		!strings.Contains(r.stdout, "2 of 2 instances answered") {
		t.Errorf("announce on A: %+v", r)
	}
	scr.waitFor(t, "announcement: back in five minutes")

	if r := run(t, admin, "admin kick "+playID, ""); r.status != 0 || !strings.Contains(r.stdout, "closed session "+playID+" (bob) on ") ||
		!strings.Contains(r.stdout, b.addr) {
		t.Fatalf("kick on A of a session on B: %+v", r)
	}
	var last line
	for l := range st.lines {
		last = l
	}
	if last.Error != kickNote.Error() {
		t.Errorf("the kicked session on B ended with %+v", last)
	}

	if r := run(t, admin, "admin ban "+bobFP+" --for 1h", ""); r.status != 0 || !strings.Contains(r.stdout, "closed 1 session(s)") {
		t.Fatalf("ban on A of a key with a session on B: %+v", r)
	}
	scr.waitFor(t, "does not accept you")
	if r := run(t, dialKey(t, b.addr, "bob", bobKey), "rooms", ""); r.status != 1 || !strings.Contains(r.stderr, "does not accept you") {
		t.Errorf("the banned key on B at once: %+v", r)
	}

	// A third instance that hears requests and never answers.
	deaf := rdb.SSubscribe(context.Background(), operatorsChannel)
	defer deaf.Close()
	if _, err := deaf.Receive(context.Background()); err != nil { // the subscription, confirmed
		t.Fatal(err)
	}
	if r := run(t, admin, "admin sessions", ""); !strings.Contains(r.stdout, "2 of 3 instances answered within 3s; ssh to the others directly") {
		t.Errorf("admin sessions with an instance that does not answer:\n%s", r.stdout)
	}
	if r := run(t, admin, "admin kick nosuch", ""); r.status != 1 || !strings.Contains(r.stderr, `no session "nosuch" on any instance that answered (2 of 3`) {
		t.Errorf("kick of no session: %+v", r)
	}
}

func mustParseURL(t *testing.T, url string) *redis.Options {
	t.Helper()
	opt, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	return opt
}
