package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// yieldChildEnv makes the test binary run TestClientsIdleLeaveTheServer's
// clients: they yield in a process of their own, not in the test's.
const yieldChildEnv = "SMOKELOAD_TEST_YIELD"

// TestClientsIdleLeaveTheServer: with --clients-idle every thread of
// smokeload's process is in the idle class, while the server process it
// started before keeps the normal class.
func TestClientsIdleLeaveTheServer(t *testing.T) {
	if os.Getenv(yieldChildEnv) != "" {
		yieldChild()
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestClientsIdleLeaveTheServer$")
	cmd.Env = append(os.Environ(), yieldChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the clients' process: %v\n%s", err, out)
	}
	var idle, other, server int
	if _, err := fmt.Sscanf(lineOf(string(out), "threads idle"), "threads idle %d other %d; server policy %d", &idle, &other, &server); err != nil {
		t.Fatalf("the clients' process said %q: %v", out, err)
	}
	if idle == 0 || other != 0 || server != unix.SCHED_NORMAL {
		t.Errorf("clients' threads: %d idle, %d not; the server's class %d, want %d (normal)", idle, other, server, unix.SCHED_NORMAL)
	}
}

// yieldChild starts a stand-in for the server, yields as --clients-idle
// does, and says its threads' classes and the server's.
func yieldChild() {
	server := exec.Command("sleep", "30")
	if err := server.Start(); err != nil {
		fmt.Println("start:", err)
		os.Exit(1)
	}
	defer server.Process.Kill()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := keepIdle(ctx); err != nil {
		fmt.Println("yield:", err)
		os.Exit(1)
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	idle, other := 0, 0
	for _, task := range tasks {
		tid, _ := strconv.Atoi(task.Name())
		if a, err := unix.SchedGetAttr(tid, 0); err == nil && a.Policy == unix.SCHED_IDLE {
			idle++
		} else if err == nil {
			other++
		}
	}
	a, err := unix.SchedGetAttr(server.Process.Pid, 0)
	if err != nil {
		fmt.Println("server:", err)
		os.Exit(1)
	}
	fmt.Printf("threads idle %d other %d; server policy %d\n", idle, other, a.Policy)
}

// lineOf is the first line of s that starts with prefix, or "".
func lineOf(s, prefix string) string {
	for line := range strings.Lines(s) {
		if strings.HasPrefix(line, prefix) {
			return line
		}
	}
	return ""
}
