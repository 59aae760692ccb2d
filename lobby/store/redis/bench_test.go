package redis

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/store/storetest"
)

// info reads one numeric field of Redis's INFO section.
func info(tb testing.TB, s *Store, section, field string) string {
	tb.Helper()
	text, err := s.rdb.Info(context.Background(), section).Result()
	if err != nil {
		tb.Fatal(err)
	}
	for line := range strings.SplitSeq(text, "\r\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			return v
		}
	}
	return ""
}

// commandCalls is how many times Redis has run command (commandstats).
func commandCalls(tb testing.TB, s *Store, command string) int64 {
	tb.Helper()
	v := info(tb, s, "commandstats", "cmdstat_"+command)
	calls, _ := strings.CutPrefix(strings.Split(v, ",")[0], "calls=")
	n, _ := strconv.ParseInt(calls, 10, 64)
	return n
}

// BenchmarkAppend: moves stored per second, this process's and
// redis-server's CPU per move, and Redis's reads of commands (a pipeline
// or a lone command each) and WAITs per move, with 1, 64 and 1024 rooms
// appending at once; alone (appendfsync always) and waiting for a
// replica.
func BenchmarkAppend(b *testing.B) {
	for _, replicas := range []int{0, 1} {
		for _, rooms := range []int{1, 64, 1024} {
			b.Run(fmt.Sprintf("replicas=%d/rooms=%d", replicas, rooms), func(b *testing.B) {
				benchAppend(b, replicas, rooms)
			})
		}
	}
}

func benchAppend(b *testing.B, replicas, rooms int) {
	primary := redistest.Start(b)
	if replicas > 0 {
		if primary.External {
			b.Skip("REDIS_URL is set: a replica of it cannot be started")
		}
		u, err := url.Parse(primary.URL)
		if err != nil {
			b.Fatal(err)
		}
		redistest.StartReplica(b, u.Host)
	}
	s, err := OpenWith(context.Background(), primary.URL, Options{Replicas: replicas})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	cpu := func() time.Duration {
		var total time.Duration
		for _, f := range []string{"used_cpu_sys", "used_cpu_user"} {
			v, _ := strconv.ParseFloat(info(b, s, "cpu", f), 64)
			total += time.Duration(v * float64(time.Second))
		}
		return total
	}
	reads := func() int64 {
		n, _ := strconv.ParseInt(info(b, s, "stats", "total_reads_processed"), 10, 64)
		return n
	}
	storetest.BenchAppend(b, s, rooms, storetest.Counters{ServerCPU: cpu, Counts: map[string]func() int64{
		"reads": reads,
		"waits": func() int64 { return commandCalls(b, s, "wait") },
	}})
}
