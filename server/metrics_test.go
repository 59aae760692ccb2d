package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/engine/factories"
)

// The metrics endpoint serves every figure docs/operations.md lists, and
// readiness follows the store.
func TestMetricsEndpoint(t *testing.T) {
	srv := startServer(t)
	c := dialKey(t, srv.addr, "alice", newKey(t))
	code := strings.TrimSpace(run(t, c, "new --players 1 --difficulty easy --seed 3", "").stdout)
	playFirstMove(t, c, code)
	web := httptest.NewServer(srv.Handler())
	defer web.Close()
	get := func(path string) (int, string) {
		resp, err := http.Get(web.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	_, body := get("/metrics")
	for _, want := range []string{
		`smokestack_sessions{kind="play"} 1`, `smokestack_sessions{kind="terminal"} 0`,
		`smokestack_rooms{state="playing"} 1`, `smokestack_moves_committed_total 1`,
		`smokestack_move_commit_seconds_count 1`, `smokestack_key_to_broadcast_seconds_count 1`,
		`smokestack_move_to_others_frame_seconds_count 0`, // a play session alone: no terminal drew the move
		`smokestack_refusals_total{reason="conn_rate"} 0`, `smokestack_refusals_total{reason="session_rate"} 0`,
		`smokestack_refusals_total{reason="lookup_limit"} 0`, `smokestack_store_errors_total`,
		`smokestack_bot_think_seconds_count`, `smokestack_expiry_lease_held 1`, `go_goroutines`, `process_open_fds`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if code, body := get("/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("/healthz: %d %q", code, body)
	}
	if code, _ := get("/readyz"); code != 200 {
		t.Errorf("/readyz with the store open: %d", code)
	}
	srv.store.Close()
	if code, body := get("/readyz"); code != 503 || !strings.Contains(body, "room store unreachable") {
		t.Errorf("/readyz with the store closed: %d %q", code, body)
	}
}

// playFirstMove plays the first legal move of the Fantastic Factories
// room code over c's play protocol and waits until it is taken.
func playFirstMove(t *testing.T, c *gossh.Client, code string) {
	t.Helper()
	st := startPlay(t, c, "play "+code)
	l := <-st.lines
	var v factories.View
	if err := json.Unmarshal(l.View, &v); err != nil || len(v.Legal) == 0 {
		t.Fatalf("first view: %v, %s", err, l.View)
	}
	st.send(t, v.Legal[0])
	for l := range st.lines {
		if l.OK {
			break
		}
	}
}

// Go's profiles are served only where WithProfiles adds them, beside the
// metrics.
func TestProfilesEndpoint(t *testing.T) {
	srv := startServer(t)
	get := func(h http.Handler, path string) (int, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec.Code, rec.Body.String()
	}
	if code, _ := get(srv.Handler(), "/debug/pprof/goroutine?debug=1"); code != http.StatusNotFound {
		t.Errorf("profiles without WithProfiles: %d, want 404", code)
	}
	h := WithProfiles(srv.Handler())
	if code, body := get(h, "/debug/pprof/goroutine?debug=1"); code != 200 || !strings.Contains(body, "goroutine profile: total") {
		t.Errorf("goroutine profile: %d %.80q", code, body)
	}
	if code, body := get(h, "/debug/pprof/heap?gc=1"); code != 200 || len(body) == 0 {
		t.Errorf("heap profile: %d, %d bytes", code, len(body))
	}
	if code, body := get(h, "/metrics"); code != 200 || !strings.Contains(body, "go_goroutines") {
		t.Errorf("metrics beside the profiles: %d", code)
	}
}
