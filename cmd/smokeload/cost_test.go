package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/redistest"
)

func TestParseInfo(t *testing.T) {
	text := "# Replication\r\nrole:master\r\nconnected_slaves:1\r\n# Stats\r\ntotal_net_input_bytes:1000\r\n" +
		"total_net_output_bytes:5000\r\n# Commandstats\r\ncmdstat_evalsha:calls=7,usec=70,usec_per_call=10.00\r\n" +
		"cmdstat_info:calls=3,usec=1\r\ncmdstat_publish:calls=2,usec=4\r\n# CPU\r\nused_cpu_sys:1.25\r\nused_cpu_user:2.5\r\n"
	w, primary, err := parseInfo(text)
	if err != nil || !primary || w.InBytes != 1000 || w.OutBytes != 5000 || w.total() != 9 || w.scripts() != 7 || w.CPUSeconds != 3.75 || w.Commands["info"] != 0 {
		t.Errorf("parseInfo: %+v, primary %v, %v", w, primary, err)
	}
	if _, primary, _ := parseInfo(strings.Replace(text, "role:master", "role:slave", 1)); primary {
		t.Error("a replica read as a primary")
	}
	if _, _, err := parseInfo("role:master\r\n"); err == nil {
		t.Error("INFO without the byte counts was accepted")
	}
	if _, _, err := parseInfo(strings.Replace(text, "calls=7", "calls=seven", 1)); err == nil {
		t.Error("a garbled command count was accepted")
	}
}

func TestParseStat(t *testing.T) {
	// The command's name may hold spaces and parentheses.
	line := "42 (smoke (stack) x) S 1 42 42 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 9 0 77 0 0"
	if got, err := parseStat(line); err != nil || got != 3*time.Second {
		t.Errorf("parseStat = %v, %v; want 3s (300 ticks)", got, err)
	}
	if _, err := parseStat("42 smokestack S 1"); err == nil {
		t.Error("a line without the command's parentheses was accepted")
	}
	if cpu, err := processCPU(os.Getpid()); err != nil || cpu < 0 {
		t.Errorf("our own CPU: %v, %v", cpu, err)
	}
}

// Three instances over a real Redis: the rooms' players on the first,
// a watcher of each room on the second, nobody on the third. Every phase
// is measured, every move counted where it happened, and the run's units
// predict the run itself.
func TestCostMode(t *testing.T) {
	r := redistest.Start(t)
	g, err := gameNamed("")
	if err != nil {
		t.Fatal(err)
	}
	var targets, pids []string
	for range 3 {
		addr, stop, err := startInstance(t.Context(), r.URL, g, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
		targets = append(targets, addr)
		pids = append(pids, fmt.Sprint(os.Getpid())) // the instances run in this process
	}
	args := []string{"--redis-info", r.URL, "--target", strings.Join(targets, ","), "--pids", strings.Join(pids, ","),
		"--sessions", "4", "--rooms", "2", "--player-targets", "1", "--watchers", "1",
		"--baseline", "3s", "--idle", "2s", "--duration", "8s", "--think", "200ms", "--json"}
	res := runCost(t, args...)
	if res.Connected != 6 || len(res.Errors) > 0 || len(res.Refused) > 0 {
		t.Fatalf("connected %d of 4 players and 2 watchers; errors %v, refused %v", res.Connected, res.Errors, res.Refused)
	}
	var names []string
	for _, p := range res.Phases {
		names = append(names, p.Name)
		if len(p.CPUms) != 3 {
			t.Errorf("phase %s: CPU of %d instances", p.Name, len(p.CPUms))
		}
	}
	if got := strings.Join(names, " "); got != "baseline connect idle moves" {
		t.Errorf("phases %s", got)
	}
	if res.Moves == 0 {
		t.Fatal("no move was played in 8s")
	}
	want := []costInstance{{Players: 4, Own: res.Moves}, {Watchers: 2, Heard: res.Moves}, {Deaf: res.Moves}}
	for k, in := range res.Instances {
		in.Target, in.PID = "", 0
		if in != want[k] {
			t.Errorf("instance %d: %+v, want %+v", k, in, want[k])
		}
	}
	// A room is made and joined, a move stored and announced: Redis
	// works for each; and the idle instances renew their heartbeats.
	u := res.Units
	if u.Connect.Commands < 1 || u.Move.Scripts <= 0 || u.Move.Commands < u.Move.Scripts || u.Move.Bytes < 100 ||
		u.BaseInstanceSec.Commands <= 0 || u.RemotesPerMove != 1 || res.Claims != 2 {
		t.Errorf("units %+v", u)
	}
	if u.TerminalBytesPerMove < 100 || res.Phases[1].TerminalBytes == 0 || res.Phases[3].Redis.CPUSeconds <= 0 {
		t.Errorf("terminals %.0f bytes a move, %d at connect; Redis CPU at play %v",
			u.TerminalBytesPerMove, res.Phases[1].TerminalBytes, res.Phases[3].Redis.CPUSeconds)
	}
	if c := res.Phases[2].Redis.Commands; c["evalsha"] == 0 {
		t.Errorf("idle phase's commands %v: no heartbeat script", c)
	}

	// The run's own units predict it: the model's arithmetic, checked
	// with the same counts.
	model := filepath.Join(t.TempDir(), "model.json")
	b, _ := json.Marshal(res)
	if err := os.WriteFile(model, b, 0o644); err != nil {
		t.Fatal(err)
	}
	p := res.Units.predict(res)
	if off := worst(p.MoveCommands, p.MoveScripts, p.MoveBytes, p.IdleCommands); off > 0.01 {
		t.Errorf("a run's units predict its own Redis work %.1f%% off: %+v", 100*off, p)
	}
	if u, err := readModel(model); err != nil || u != res.Units {
		t.Errorf("readModel: %+v, %v", u, err)
	}
	var table bytes.Buffer
	res.Model, res.Prediction = model, &p
	if err := res.writeTable(&table); err != nil || !strings.Contains(table.String(), "Redis commands/s, moves") {
		t.Errorf("table: %v\n%s", err, table.String())
	}
}

func runCost(t *testing.T, args ...string) costResult {
	t.Helper()
	var out, errOut bytes.Buffer
	if status := run(t.Context(), args, &out, &errOut); status != 0 {
		t.Fatalf("smokeload %s: exit %d\n%s", strings.Join(args, " "), status, errOut.String())
	}
	var res costResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	return res
}

func TestCostFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--target", "127.0.0.1:1,127.0.0.1:2", "--sessions", "2"}, "unless --redis-info"},
		{[]string{"--redis-info", "redis://127.0.0.1:1/0", "--target", "127.0.0.1:1"}, "give --sessions"},
		{[]string{"--redis-info", "redis://127.0.0.1:1/0", "--sessions", "2", "--target", "127.0.0.1:1", "--watchers", "1"}, "--watchers must be 0 to 0"},
		{[]string{"--redis-info", "redis://127.0.0.1:1/0", "--sessions", "2", "--target", "127.0.0.1:1,127.0.0.1:2", "--pids", "1"}, "--pids names 1"},
		{[]string{"--redis-info", "redis://127.0.0.1:1/0", "--sessions", "2", "--target", "127.0.0.1:1", "--pids", "x"}, "not a process ID"},
		{[]string{"--redis-info", "redis://127.0.0.1:1/0", "--sessions", "2", "--target", "127.0.0.1:1", "--player-targets", "2"}, "--player-targets must be 1 to 1"},
		{[]string{"--redis-info", "redis://192.0.2.1:6379/0", "--sessions", "2", "--target", "127.0.0.1:1"}, "not a loopback address"},
		{[]string{"--redis-info", "redis://127.0.0.1:1/0", "--sessions", "2", "--target", "127.0.0.1:1,127.0.0.1:2", "--watchers", "1"}, ""},
	} {
		_, err := parseFlags(tc.args, io.Discard)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v: %v", tc.args, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v: error %v, want one saying %q", tc.args, err, tc.want)
		}
	}
}

// Two runs whose moves were heard by one and by three other instances
// give what each one more adds; one run alone gives nothing more.
func TestFit(t *testing.T) {
	one := costUnits{RemotesPerMove: 1, Move: redisAmount{Commands: 13, Scripts: 1, Bytes: 2400}, CPUPerMoveMs: 10}
	three := costUnits{RemotesPerMove: 3, Move: redisAmount{Commands: 25, Scripts: 1, Bytes: 4000}, CPUPerMoveMs: 12}
	m := fit([]costUnits{one, three})
	if m.MovePerRemote != (redisAmount{Commands: 6, Bytes: 800}) || m.CPUPerMoveMs != 11 {
		t.Errorf("fit: %+v", m)
	}
	if got := m.moveAt(2); got != (redisAmount{Commands: 19, Scripts: 1, Bytes: 3200}) {
		t.Errorf("a move heard by two: %+v", got)
	}
	if m := fit([]costUnits{one}); m.MovePerRemote != (redisAmount{}) || m.moveAt(3) != one.Move {
		t.Errorf("one run: %+v, a move heard by three %+v", m, m.moveAt(3))
	}
}
