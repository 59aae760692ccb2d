package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMain lets this test binary be capacity mode's server process, as
// the smokeload binary is: startServerChild runs os.Executable.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(serveChildMain())
	}
	os.Exit(m.Run())
}

// Samples past their window are reported as censored: counted, and any
// figure that lands on one shown as "> window", never as the window.
func TestCapacityReportShowsCensoredSamples(t *testing.T) {
	var key, move []time.Duration
	for i := range 98 {
		key = append(key, time.Duration(i+1)*time.Millisecond)
	}
	for i := range 199 {
		move = append(move, time.Duration(i+1)*10*time.Millisecond)
	}
	r := capResult{Sessions: 4, Rooms: 1, Connected: 4, Think: "2s", Moves: 50, KeyMisses: 2, MoveCensored: 1, EntersUnseen: 3,
		Errors:     map[string]int{"the game screen did not open within 30s": 2},
		KeyToOwn:   summarise(append(key, keyWindow, keyWindow)),
		MoveToRest: summarise(append(move, moveWindow))}
	var out strings.Builder
	if err := r.writeTable(&out); err != nil {
		t.Fatal(err)
	}
	table := out.String()
	for _, want := range []string{
		// 100 samples, two censored at 10 s: the p99 is one of them.
		"key to own frame           100     50.0ms  > 10000ms  > 10000ms         2",
		// 200 samples, one censored: the p99 is the 198th, 1,980 ms.
		"move to others' frame      200   1000.0ms   1980.0ms  > 15000ms         1",
		"keys not redrawn within 10s 2",
		"moves not shown to another player within 15s 1",
		"enters not answered on the mover's own screen within 2s 3",
		"errors 2",
		"error 2: the game screen did not open within 30s",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("the table lacks %q:\n%s", want, table)
		}
	}
}

// A small capacity run seats everyone, measures every figure, finds
// the server clean, and writes the server's CPU profile over the play.
func TestCapacityMode(t *testing.T) {
	var res capResult
	cpu := filepath.Join(t.TempDir(), "cpu.pb.gz")
	clients := filepath.Join(t.TempDir(), "clients.pb.gz")
	// Two players a room: a player acting off their turn plays nothing,
	// so with four a room eight seconds could pass with no move at all.
	runCapacity(t, &res, "--sessions", "8", "--rooms", "4", "--duration", "8s", "--think", "200ms", "--idle", "1s",
		"--cpu-profile", cpu, "--client-cpu-profile", clients, "--client-procs", "1")
	for _, f := range []string{cpu, clients} {
		if p, err := os.ReadFile(f); err != nil || len(p) == 0 {
			t.Errorf("cpu profile %s: %d bytes, %v", filepath.Base(f), len(p), err)
		}
	}
	if res.ClientCPUCores <= 0 || res.ClientProcs != 1 || res.Pace.IntendedActionsPerRoomMinute != 300 ||
		res.Pace.ActionsPerRoomMinute <= 0 || res.Pace.MovesPerAction <= 0 {
		t.Errorf("clients %.2f cores on %d procs, pace %+v", res.ClientCPUCores, res.ClientProcs, res.Pace)
	}
	if res.Connected != 8 || len(res.Errors) > 0 || len(res.Refused) > 0 {
		t.Fatalf("seated %d of 8; errors %v, refused %v", res.Connected, res.Errors, res.Refused)
	}
	figures := map[string]stats{"connect": res.Connect, "key to own frame": res.KeyToOwn}
	if res.Moves > 0 { // enter off a player's turn plays nothing
		figures["move to others' frame"] = res.MoveToRest
	}
	for name, s := range figures {
		if s.Count == 0 || !(0 < s.P50 && s.P50 <= s.P99 && s.P99 <= s.Max) {
			t.Errorf("%s: %+v", name, s)
		}
	}
	if res.ServerMoves == 0 || res.ServerMoves < res.Moves || res.RSSKB <= 0 || res.HeapKB <= 0 || res.StackKB <= 0 ||
		res.Goroutines <= 0 || res.IdleCPU < 0 || res.PlayCPU <= 0 || !res.Freed || res.Panics != 0 {
		t.Errorf("report %+v", res)
	}
}

// --rate paces the rooms on a schedule and says how late their actions
// came and what they played against what was asked.
func TestCapacityRate(t *testing.T) {
	var res capResult
	runCapacity(t, &res, "--sessions", "8", "--rooms", "4", "--duration", "8s", "--rate", "30", "--idle", "500ms")
	if res.Connected != 8 || len(res.Errors) > 0 || res.Think != "rate 30" {
		t.Fatalf("seated %d of 8 (pace %q); errors %v", res.Connected, res.Think, res.Errors)
	}
	p := res.Pace
	if p.TargetMovesPerPlayerMinute != 30 || p.IntendedMovesPerPlayerMinute != 30 || p.Late.Count == 0 ||
		p.ActionsPerRoomMinute <= 0 || p.MovesPerPlayerMinute <= 0 || p.Behind != (p.MovesPerPlayerMinute < 27) {
		t.Errorf("pace %+v", p)
	}
}

// In the lobby every player's key redraws its own screen, and the
// profiles taken with everyone seated are written.
func TestCapacityLobby(t *testing.T) {
	dir := t.TempDir()
	var res capResult
	runCapacity(t, &res, "--screen", "lobby", "--sessions", "6", "--rooms", "2", "--duration", "4s", "--think", "200ms",
		"--idle", "1s", "--profiles", dir)
	if res.Connected != 6 || res.Screen != "lobby" || len(res.Errors) > 0 || len(res.Refused) > 0 {
		t.Fatalf("seated %d of 6 on %q; errors %v, refused %v", res.Connected, res.Screen, res.Errors, res.Refused)
	}
	if s := res.KeyToOwn; s.Count < 10 || res.KeyMisses > 0 || !(0 < s.P50 && s.P50 <= s.P99) {
		t.Errorf("key to own frame %+v, %d never redrawn", s, res.KeyMisses)
	}
	if res.Moves != 0 || res.ServerMoves != 0 || res.Goroutines <= 0 || res.HeapKB <= 0 || res.Panics != 0 {
		t.Errorf("report %+v", res)
	}
	for _, f := range []string{"heap-lobby.pb.gz", "goroutine-lobby.pb.gz", "goroutine-lobby.txt"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("profile %s: %v", f, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "goroutine-lobby.txt")); !strings.Contains(string(b), "bubbletea") {
		t.Errorf("the goroutine profile shows no session's program:\n%.500s", b)
	}
}

// Past the server's limits players are refused with its line, not errors.
func TestCapacityRefusals(t *testing.T) {
	var res capResult
	// Thirty players from one address, which the server allows 20
	// connections: the rest are refused with the server's own words.
	runCapacity(t, &res, "--sessions", "30", "--rooms", "10", "--per-addr", "30", "--duration", "1s")
	// A player whose room's creator was refused connects but never sits.
	if res.Connected+res.Skipped != 20 || res.Refused["smokestack: too many connections from your address; try again in a minute"] != 10 ||
		len(res.Errors) > 0 || res.Panics != 0 {
		t.Errorf("connected %d, skipped %d, refused %v, errors %v, panics %d", res.Connected, res.Skipped, res.Refused, res.Errors, res.Panics)
	}
}

func runCapacity(t *testing.T, res *capResult, args ...string) {
	t.Helper()
	var out, errOut bytes.Buffer
	if status := run(t.Context(), append(args, "--json"), &out, &errOut); status != 0 {
		t.Fatalf("smokeload %s: exit status %d\nstderr: %s", strings.Join(args, " "), status, errOut.String())
	}
	if err := json.Unmarshal(out.Bytes(), res); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, out.String())
	}
}

// --frames runs each way of drawing in turn, on a server of its own, and
// both draw every key.
func TestCapacityFrames(t *testing.T) {
	dir := t.TempDir()
	var cmp comparison
	var out, errOut bytes.Buffer
	args := []string{"--frames", "tick,change", "--screen", "lobby", "--sessions", "4", "--rooms", "1", "--duration", "2s",
		"--think", "200ms", "--idle", "500ms", "--profiles", dir, "--json"}
	if status := run(t.Context(), args, &out, &errOut); status != 0 {
		t.Fatalf("exit status %d\nstderr: %s", status, errOut.String())
	}
	if err := json.Unmarshal(out.Bytes(), &cmp); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, out.String())
	}
	if len(cmp.Runs) != 2 || cmp.Runs[0].Frames != "tick" || cmp.Runs[1].Frames != "change" {
		t.Fatalf("runs %+v", cmp.Runs)
	}
	for _, r := range cmp.Runs {
		if r.Connected != 4 || r.KeyToOwn.Count < 4 || r.KeyMisses > 0 || r.Goroutines <= 0 {
			t.Errorf("%s: seated %d, %d keys drawn, %d never, %.1f goroutines a session", r.Frames, r.Connected, r.KeyToOwn.Count, r.KeyMisses, r.Goroutines)
		}
	}
	// Drawing on change stops each session's renderer ticker: Bubble
	// Tea's renderer flushes from a goroutine of its own on every tick,
	// one a session, and drawing on change runs no renderer. Counted in
	// each server's goroutines with everyone seated (each screen has drawn
	// its first frame, so its renderer runs), by what they run: the
	// goroutines per session in all also count those that come and go (a
	// command's, a metrics scrape's), so how many a run catches depends on
	// the machine's load, and that figure stays in the report.
	t.Logf("goroutines per session: %.1f ticking, %.1f drawing on change", cmp.Runs[0].Goroutines, cmp.Runs[1].Goroutines)
	const ticker = "github.com/charmbracelet/bubbletea.(*standardRenderer).listen"
	for _, want := range []struct {
		frames string
		n      int
	}{{"tick", 4}, {"change", 0}} {
		if n := goroutinesIn(t, filepath.Join(dir, "goroutine-lobby-"+want.frames+"-1.txt"), ticker); n != want.n {
			t.Errorf("drawing on %s, 4 sessions run %d renderer tickers, want %d", want.frames, n, want.n)
		}
	}
	var table bytes.Buffer
	if err := cmp.writeTable(&table); err != nil || !strings.Contains(table.String(), "key to own frame p50") {
		t.Errorf("table (%v):\n%s", err, table.String())
	}
}

// goroutinesIn counts the goroutines whose stack runs through the
// function fn in the goroutine profile at path (its text form, debug=1):
// after a header line, groups of goroutines with one stack, apart by
// blank lines, each a "COUNT @ PCS" line and a "#\tPC\tFUNC+OFFSET\tFILE:LINE"
// line a frame.
func goroutinesIn(t *testing.T, path, fn string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	header, body, _ := strings.Cut(string(b), "\n")
	if !strings.HasPrefix(header, "goroutine profile: total ") {
		t.Fatalf("%s is not a goroutine profile:\n%.200s", path, b)
	}
	n := 0
	for group := range strings.SplitSeq(body, "\n\n") {
		var count int
		if _, err := fmt.Sscanf(group, "%d @", &count); err == nil && strings.Contains(group, "\t"+fn+"+") {
			n += count
		}
	}
	return n
}
