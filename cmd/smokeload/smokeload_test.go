package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/internal/redistest"
)

// runJSON runs smokeload with args and --json, and returns its report.
func runJSON(t *testing.T, args ...string) report {
	t.Helper()
	var out, errOut bytes.Buffer
	if status := run(t.Context(), append(args, "--json"), &out, &errOut); status != 0 {
		t.Fatalf("smokeload %s: exit status %d\nstderr: %s\nstdout: %s", strings.Join(args, " "), status, errOut.String(), out.String())
	}
	var rep report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, out.String())
	}
	return rep
}

// checkReport checks what any run of n moves must report.
func checkReport(t *testing.T, rep report, n int, timeout time.Duration) {
	t.Helper()
	if rep.Moves != n || rep.Games < 1 {
		t.Errorf("report: %d moves in %d games, want %d moves", rep.Moves, rep.Games, n)
	}
	if len(rep.Instances) != 2 || rep.Instances[0] == rep.Instances[1] {
		t.Fatalf("instances %v, want two different ones", rep.Instances)
	}
	for _, m := range metrics {
		s := rep.Latency[m.key]
		want := n
		if strings.HasPrefix(m.key, "frame") {
			// A terminal may have nothing new to draw; it says so.
			want = n - rep.MissedFrames
		}
		if s.Count < want || s.Count > n {
			t.Errorf("%s: %d samples, want %d (%d frames missed)", m.key, s.Count, want, rep.MissedFrames)
		}
		if s.Count == 0 {
			continue
		}
		if !(0 < s.P50 && s.P50 <= s.P90 && s.P90 <= s.P99 && s.P99 <= s.Max && s.Max < float64(timeout.Milliseconds())) {
			t.Errorf("%s: want 0 < p50 <= p90 <= p99 <= max < %s, got %+v", m.key, timeout, s)
		}
		if s.Mean <= 0 || s.Mean > s.Max {
			t.Errorf("%s: mean %.3fms outside (0, max %.3fms]", m.key, s.Mean, s.Max)
		}
	}
	if rep.MissedFrames > n/2 {
		t.Errorf("terminals drew nothing after %d of %d moves", rep.MissedFrames, n)
	}
	for _, k := range []string{"frame_p50", "frame_p99", "update_p50", "update_p99"} {
		if rep.Ratio[k] <= 0 {
			t.Errorf("ratio %s = %v, want a positive number", k, rep.Ratio[k])
		}
	}
}

// TestOwnCluster is what `smokeload` alone does, for a handful of moves:
// two instances in this process over the test's redis-server.
func TestOwnCluster(t *testing.T) {
	r := redistest.Start(t)
	const n = 8
	rep := runJSON(t, "--redis", r.URL, "--moves", "8", "--settle", "20ms", "--timeout", "20s")
	checkReport(t, rep, n, 20*time.Second)
	if rep.Mode != "own" || rep.Redis != r.URL {
		t.Errorf("mode %q over redis %q, want own over %s", rep.Mode, rep.Redis, r.URL)
	}
	for _, addr := range rep.Instances {
		if host, _, _ := net.SplitHostPort(addr); !net.ParseIP(host).IsLoopback() {
			t.Errorf("instance on %s, want loopback", addr)
		}
	}
	var table bytes.Buffer
	if err := rep.writeTable(&table); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"8 moves", "frame  A→B  cross-instance", "update A→A  same instance", "cross/same frame"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
}

// TestEveryGame plays a few moves of each game the registry holds, its
// players choosing with the game's bots from the views as JSON:
// smokeload knows no game of its own.
func TestEveryGame(t *testing.T) {
	r := redistest.Start(t)
	for _, g := range games.All() {
		t.Run(g.Name(), func(t *testing.T) {
			rep := runJSON(t, "--redis", r.URL, "--game", g.Name(), "--moves", "4", "--settle", "20ms", "--timeout", "20s")
			checkReport(t, rep, 4, 20*time.Second)
		})
	}
}

// TestTargets drives instances somebody else started, as with
// deploy/local-cluster.sh, across two rooms at once.
func TestTargets(t *testing.T) {
	r := redistest.Start(t)
	cl, err := startCluster(t.Context(), config{redis: r.URL}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	rep := runJSON(t, "--targets", strings.Join(cl.addrs, ","), "--moves", "6", "--rooms", "2",
		"--bot", "random", "--settle", "20ms", "--timeout", "20s")
	checkReport(t, rep, 6, 20*time.Second)
	if rep.Mode != "targets" || rep.Redis != "" || rep.Games < 2 {
		t.Errorf("mode %q, redis %q, %d games; want targets, none, 2 rooms' games", rep.Mode, rep.Redis, rep.Games)
	}
}

func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // in the error; "" for none
	}{
		{nil, ""},
		{[]string{"--targets", "127.0.0.1:2301,localhost:2302", "--moves", "5"}, ""},
		{[]string{"--targets", "127.0.0.1:2301"}, "wants two instances"},
		{[]string{"--targets", "192.0.2.1:2301,127.0.0.1:2302"}, "not a loopback address"},
		{[]string{"--targets", "192.0.2.1:2301,127.0.0.1:2302", "--allow-remote"}, ""},
		{[]string{"--redis", "redis://192.0.2.1:6379/0"}, "not a loopback address"},
		{[]string{"--targets", "127.0.0.1:1,127.0.0.1:2", "--redis", "redis://127.0.0.1:6379"}, "--redis is for our own instances"},
		{[]string{"--moves", "0"}, "--moves"},
		{[]string{"--rooms", "51"}, "--rooms"},
		{[]string{"--width", "40"}, "80x24"},
		{[]string{"--bot", "clever"}, "unknown bot"},
		{[]string{"--game", "chess"}, "no game"},
		{[]string{"--sessions", "8", "--rooms", "2", "--rate", "2"}, ""},
		{[]string{"--sessions", "8", "--rooms", "2", "--rate", "2", "--think", "3s"}, "give one"},
		{[]string{"--sessions", "8", "--rooms", "2", "--rate", "2", "--screen", "lobby"}, "--rate paces players at tables"},
		{[]string{"--rate", "2"}, "--rate paces players at tables"},
		{[]string{"--sessions", "8", "--rooms", "2", "--rate", "-1"}, "positive"},
		{[]string{"--sessions", "8", "--rooms", "2", "--client-procs", "-1"}, "--client-procs"},
		{[]string{"--clients-idle"}, "--clients-idle is for capacity mode"},
		{[]string{"--sessions", "8", "--rooms", "2", "--frames", "change,tick", "--clients-idle"}, "--clients-idle is for capacity mode"},
		{[]string{"--sessions", "8", "--rooms", "2", "--target", "127.0.0.1:1", "--redis-info", "redis://127.0.0.1:1", "--clients-idle"}, "--clients-idle is for capacity mode"},
	} {
		_, err := parseFlags(tc.args, io.Discard)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v: %v", tc.args, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v: error %v, want one saying %q", tc.args, err, tc.want)
		}
	}
	var help bytes.Buffer
	if _, err := parseFlags([]string{"--help"}, &help); !errors.Is(err, flag.ErrHelp) || !strings.Contains(help.String(), "-targets") {
		t.Errorf("--help: %v\n%s", err, help.String())
	}
	if status := run(t.Context(), []string{"extra"}, io.Discard, io.Discard); status != 2 {
		t.Errorf("an unexpected argument: exit status %d, want 2", status)
	}
}

func TestPercentile(t *testing.T) {
	ds := make([]time.Duration, 100)
	for i := range ds {
		ds[i] = time.Duration(i+1) * time.Millisecond
	}
	for p, want := range map[float64]time.Duration{50: 50 * time.Millisecond, 99: 99 * time.Millisecond, 100: 100 * time.Millisecond, 0: time.Millisecond} {
		if got := percentile(ds, p); got != want {
			t.Errorf("p%v of 1..100ms = %v, want %v", p, got, want)
		}
	}
	if got := percentile(ds[:1], 99); got != time.Millisecond {
		t.Errorf("p99 of one sample = %v", got)
	}
}
