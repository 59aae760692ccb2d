package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/charmbracelet/ssh"
	wish1 "github.com/charmbracelet/wish"
	gossh "golang.org/x/crypto/ssh"

	wish2 "charm.land/wish/v2"
)

// variant is one way of running the screens.
type variant struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	line  int    // Bubble Tea major version
	fps   int    // tea.WithFPS; 0 is the library's default (60)
}

var variants = []variant{
	{"v1-60", "Bubble Tea v1.3.10 on Wish v1, default 60 fps", 1, 0},
	{"v1-120", "Bubble Tea v1.3.10 on Wish v1, WithFPS(120)", 1, 120},
	{"v2-60", "Bubble Tea v2.1.1 on Wish v2, default 60 fps", 2, 0},
	{"v2-120", "Bubble Tea v2.1.1 on Wish v2, WithFPS(120)", 2, 120},
}

func variantNamed(name string) (variant, error) {
	var names []string
	for _, v := range variants {
		if v.Name == name {
			return v, nil
		}
		names = append(names, v.Name)
	}
	return variant{}, fmt.Errorf("no variant %q; there are %s", name, strings.Join(names, ", "))
}

// serverAddrs is the line a server process prints when it is ready.
type serverAddrs struct {
	SSH   string `json:"ssh"`
	Stats string `json:"stats"`
}

// serve is the server process for one variant: an SSH server and a stats
// endpoint on free loopback ports, until its standard input ends (the
// driver holds it open).
func serve(name string, stdin io.Reader, stdout io.Writer) error {
	v, err := variantNamed(name)
	if err != nil {
		return err
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return err
	}
	hostKey, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return err
	}
	var sessions atomic.Int64
	h := newHub()
	handle := func(sess ssh.Session) {
		sessions.Add(1)
		defer sessions.Add(-1)
		if v.line == 1 {
			serveV1(sess, v.fps, h)
		} else {
			serveV2(sess, v.fps, h)
		}
	}
	opts := []ssh.Option{
		func(srv *ssh.Server) error { srv.AddHostKey(hostKey); return nil },
		ssh.PublicKeyAuth(func(ssh.Context, ssh.PublicKey) bool { return true }),
		ssh.EmulatePty(), // as the real server: no kernel PTY per session
	}
	newServer := wish1.NewServer
	if v.line == 2 {
		newServer = wish2.NewServer
	}
	srv, err := newServer(opts...)
	if err != nil {
		return err
	}
	srv.Handler = handle
	sshL, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	statsL, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer statsL.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index) // the driver reads the heap profile
	mux.HandleFunc("/stats", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("gc") {
			runtime.GC()
			debug.FreeOSMemory()
		}
		s, err := readStats(sessions.Load())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_ = json.NewEncoder(w).Encode(s)
	})
	go func() { _ = srv.Serve(sshL) }()
	go func() { _ = http.Serve(statsL, mux) }()
	if err := json.NewEncoder(stdout).Encode(serverAddrs{sshL.Addr().String(), statsL.Addr().String()}); err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, stdin)
	return srv.Close()
}

// procStats is what the server process reports about itself.
type procStats struct {
	RSS        int64         `json:"rss"`    // resident set, bytes
	CPU        time.Duration `json:"cpu_ns"` // user plus system time so far
	HeapInuse  uint64        `json:"heap_inuse"`
	Goroutines int           `json:"goroutines"`
	Sessions   int64         `json:"sessions"`
}

func readStats(sessions int64) (procStats, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return procStats{}, err
	}
	rss, err := residentBytes()
	if err != nil {
		return procStats{}, err
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return procStats{
		RSS:        rss,
		CPU:        time.Duration(ru.Utime.Nano() + ru.Stime.Nano()),
		HeapInuse:  ms.HeapInuse,
		Goroutines: runtime.NumGoroutine(),
		Sessions:   sessions,
	}, nil
}

// residentBytes reads the resident set size from /proc/self/statm.
func residentBytes() (int64, error) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, err
	}
	fields := strings.Fields(string(b))
	if len(fields) < 2 {
		return 0, errors.New("/proc/self/statm: too few fields")
	}
	pages, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("/proc/self/statm: %w", err)
	}
	return pages * int64(os.Getpagesize()), nil
}
