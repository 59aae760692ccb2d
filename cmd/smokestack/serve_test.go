package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

func TestParseServe(t *testing.T) {
	env := map[string]string{"SMOKESTACK_LISTEN": ":3333", "SMOKESTACK_EXPIRE": "2h", "SMOKESTACK_PROXY_PROTOCOL": "1", "XDG_STATE_HOME": "/state",
		"SMOKESTACK_PUBLIC_ADDR": "games.example.org"}
	getenv := func(k string) string { return env[k] }
	var stderr bytes.Buffer
	c, err := parseServe([]string{"--expire", "3h"}, getenv, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if c.listen != ":3333" || c.expire != 3*time.Hour || !c.proxyProto || c.dataDir != "/state/smokestack" || c.store != "bolt" ||
		c.publicAddr != "games.example.org:22" {
		t.Errorf("parsed %+v: want env for --listen, --proxy-protocol and --public-addr, the flag for --expire, data dir from XDG_STATE_HOME", c)
	}

	// Each limit has its flag and variable, and the old --metrics still
	// names the metrics address.
	c, err = parseServe([]string{"--max-sessions", "50", "--metrics", "127.0.0.1:9222", "--max-refused-sessions", "5"},
		func(k string) string {
			return map[string]string{"SMOKESTACK_CONN_RATE": "7", "SMOKESTACK_MOVE_RATE": "2.5", "XDG_STATE_HOME": "/s",
				"SMOKESTACK_SESSION_RATE": "12", "SMOKESTACK_LOOKUP_WINDOW": "30m", "SMOKESTACK_CHAT_RATE": "6",
				"SMOKESTACK_INPUT_BUDGET":             "1048576",
				"SMOKESTACK_MAX_NEW_PLAYERS_PER_HOUR": "5", "SMOKESTACK_PROFILE_EXPIRE": "72h"}[k]
		}, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if c.limits.Sessions != 50 || c.limits.ConnRate != 7 || c.lobbyLimits.MovesPerSecond != 2.5 ||
		c.limits.HandshakeTimeout != 20*time.Second || c.metricsListen != "127.0.0.1:9222" ||
		c.limits.SessionRate != 12 || c.limits.SessionsPerConn != 10 ||
		c.lobbyLimits.LookupWindow != 30*time.Minute || c.lobbyLimits.LookupMisses != 20 || c.lobbyLimits.LookupBackoff != 250*time.Millisecond ||
		c.lobbyLimits.ChatPerMinute != 6 || c.limits.RefusedSessions != 5 || c.limits.InputBudget != 1<<20 ||
		c.limits.InputBuffer != 64<<10 || c.limits.ConnInputBuffer != 256<<10 ||
		c.lobbyLimits.ProfilesPerHour != 5 || c.profileExp != 72*time.Hour {
		t.Errorf("parsed %+v", c)
	}

	for _, tt := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"--store", "mysql"}, nil, "choose bolt or memory"},
		{[]string{"--store", "memory"}, map[string]string{"SMOKESTACK_REDIS": "redis://r:6379/0"}, "--store memory and --redis both given"},
		{[]string{"--redis", "redis://r:6379/0"}, map[string]string{"SMOKESTACK_STORE": "bolt"}, "--store bolt and --redis both given"},
		{[]string{"--redis", "redis://r:6379/0"}, map[string]string{"SMOKESTACK_REDIS_CLUSTER": "redis://n1:6379?addr=n2:6379"}, "--redis and --redis-cluster both given"},
		{[]string{"--redis-cluster", "redis://n1:6379"}, map[string]string{"SMOKESTACK_STORE": "bolt"}, "--store bolt and --redis-cluster both given"},
		{[]string{"--redis-replicas", "1"}, nil, "0 or more, with --redis"},
		{[]string{"--redis", "redis://r:6379/0"}, map[string]string{"SMOKESTACK_REDIS_REPLICAS": "-2"}, "--redis-replicas -2"},
		{[]string{"--bot-delay", "-1s"}, nil, "cannot be negative"},
		{nil, map[string]string{"SMOKESTACK_EXPIRE": "soon"}, `SMOKESTACK_EXPIRE="soon"`},
		{[]string{"--listen"}, nil, "bad flags"},
		{[]string{"--max-sessions", "-1"}, nil, "limits cannot be negative"},
		{nil, map[string]string{"SMOKESTACK_INACTIVITY_TIMEOUT": "-5m"}, "limits cannot be negative"},
		{[]string{"--lookup-misses", "-1"}, nil, "limits cannot be negative"},
		{[]string{"--lookup-window", "0"}, nil, "needs a --lookup-window"},
		{[]string{"--metrics", ":1", "--metrics-listen", ":2"}, nil, "only --metrics-listen"},
		{[]string{"--pprof"}, nil, "give --metrics-listen too"},
		{[]string{"extra"}, nil, "bad flags"},
		{[]string{"--public-addr", "games.example.org:99999"}, nil, "--public-addr"},
		{nil, map[string]string{"SMOKESTACK_PUBLIC_ADDR": "alice@games.example.org"}, "not a host name"},
	} {
		_, err := parseServe(tt.args, func(k string) string { return tt.env[k] }, &stderr)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v %v: err %v, want %q", tt.args, tt.env, err, tt.want)
		}
	}
}

func TestHelpNamesEveryEnvVar(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), []string{"serve", "--help"}, &stdout, &stderr); code != 0 {
		t.Fatalf("serve --help: exit %d", code)
	}
	for _, e := range serveEnv {
		if !strings.Contains(stderr.String(), "--"+e.flag) || !strings.Contains(stderr.String(), e.env) {
			t.Errorf("serve --help does not explain --%s and %s", e.flag, e.env)
		}
	}
	if code := run(t.Context(), []string{"launch"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), `unknown command "launch"`) {
		t.Errorf("unknown subcommand: exit %d, %q", code, stderr.String())
	}
}

// syncBuffer is a log the server writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var listening = regexp.MustCompile(`msg=listening addr=(\S+)`)

// serveOnce starts `smokestack serve` on dir, runs one command over SSH,
// stops the server as SIGTERM would, and returns the output and the host
// key the client saw.
func serveOnce(t *testing.T, dir, cmd string) (string, gossh.PublicKey) {
	t.Helper()
	ctx, stop := context.WithCancel(t.Context())
	logs := &syncBuffer{}
	exited := make(chan int, 1)
	go func() {
		exited <- run(ctx, []string{"serve", "--listen", "127.0.0.1:0", "--data-dir", dir}, logs, logs)
	}()
	var addr string
	for deadline := time.Now().Add(10 * time.Second); addr == ""; {
		if m := listening.FindStringSubmatch(logs.String()); m != nil {
			addr = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("server did not start:\n%s", logs)
		}
		time.Sleep(10 * time.Millisecond) // the poll's pace
	}
	key := newClientKey(t)
	var hostKey gossh.PublicKey
	client, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "op", Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: func(_ string, _ net.Addr, k gossh.PublicKey) error { hostKey = k; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out, err := sess.Output(cmd)
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	client.Close()
	stop()
	if code := <-exited; code != 0 {
		t.Fatalf("serve exited %d:\n%s", code, logs)
	}
	if !strings.Contains(logs.String(), "msg=stopped") {
		t.Errorf("no clean stop in the logs:\n%s", logs)
	}
	return string(out), hostKey
}

// The server keeps its host key and its rooms across restarts.
func TestServeRestartsWithSameKeyAndRooms(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	code, key1 := serveOnce(t, dir, "new --players 2 --seed 9")
	code = strings.TrimSpace(code)
	info, err := os.Stat(filepath.Join(dir, "ssh_host_ed25519_key"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("host key: %v, mode %v", err, info.Mode())
	}
	rooms, key2 := serveOnce(t, dir, "rooms")
	if !bytes.Equal(key1.Marshal(), key2.Marshal()) {
		t.Error("the host key changed across a restart")
	}
	if !strings.Contains(rooms, code) {
		t.Errorf("room %s lost across a restart; rooms:\n%s", code, rooms)
	}
}

func TestServeRefusesLooseHostKey(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "ssh_host_ed25519_key")
	if err := os.WriteFile(key, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if code := run(t.Context(), []string{"serve", "--listen", "127.0.0.1:0", "--data-dir", dir}, &out, &out); code != 1 || !strings.Contains(out.String(), "chmod 600") {
		t.Errorf("serve with a 0644 host key: exit %d, %q", code, out.String())
	}
}

// newClientKey makes a fresh player key: an identity of the test's own.
func newClientKey(t *testing.T) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	key, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return key
}
