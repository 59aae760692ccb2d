package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"time"

	"github.com/google/pprof/profile"
)

// server is one variant's server process, as the driver sees it. Each
// variant runs in a process of its own so that its CPU time and resident
// set are its own, not the driver's nor an earlier variant's.
type server struct {
	v     variant
	cmd   *exec.Cmd
	stdin io.WriteCloser
	addrs serverAddrs
}

func startServer(ctx context.Context, v variant) (*server, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	s := &server{v: v, cmd: exec.CommandContext(ctx, exe, "serve", v.Name)}
	s.cmd.Stderr = os.Stderr
	if s.stdin, err = s.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(out).ReadBytes('\n')
	if err == nil {
		err = json.Unmarshal(line, &s.addrs)
	}
	if err != nil {
		s.stop()
		return nil, fmt.Errorf("%s server: %w", v.Name, err)
	}
	return s, nil
}

// stop ends the server process: it exits when its input ends.
func (s *server) stop() {
	s.stdin.Close()
	_ = s.cmd.Wait()
}

// stats reads the server's own figures; gc first collects garbage and
// returns free memory to the system, so the resident set is what is live.
func (s *server) stats(gc bool) (procStats, error) {
	url := "http://" + s.addrs.Stats + "/stats"
	if gc {
		url += "?gc=1"
	}
	var st procStats
	resp, err := http.Get(url)
	if err != nil {
		return st, err
	}
	defer resp.Body.Close()
	return st, json.NewDecoder(resp.Body).Decode(&st)
}

// idle waits until every session of the last phase has ended.
func (s *server) idle(ctx context.Context) error {
	for {
		st, err := s.stats(false)
		if err != nil {
			return err
		}
		if st.Sessions == 0 {
			return nil
		}
		select {
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
			return fmt.Errorf("%s: %d sessions still open: %w", s.v.Name, st.Sessions, ctx.Err())
		}
	}
}

// heapTop saves the server's heap profile to path and returns the
// functions holding the most live memory, per session.
func (s *server) heapTop(path string, sessions, n int) ([]heapLine, error) {
	resp, err := http.Get("http://" + s.addrs.Stats + "/debug/pprof/heap?gc=1")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := profile.Parse(io.TeeReader(resp.Body, f))
	if err != nil {
		return nil, fmt.Errorf("heap profile: %w", err)
	}
	inuse := -1
	for i, st := range p.SampleType {
		if st.Type == "inuse_space" {
			inuse = i
		}
	}
	if inuse < 0 {
		return nil, fmt.Errorf("heap profile has no inuse_space")
	}
	flat := map[string]int64{}
	for _, smp := range p.Sample {
		if len(smp.Location) == 0 || len(smp.Location[0].Line) == 0 {
			continue
		}
		flat[smp.Location[0].Line[0].Function.Name] += smp.Value[inuse]
	}
	var top []heapLine
	for fn, b := range flat {
		top = append(top, heapLine{Function: fn, BytesPerSession: b / int64(max(sessions, 1))})
	}
	sort.Slice(top, func(i, j int) bool { return top[i].BytesPerSession > top[j].BytesPerSession })
	return top[:min(n, len(top))], nil
}

// heapLine is one function's share of the live heap.
type heapLine struct {
	Function        string `json:"function"`
	BytesPerSession int64  `json:"bytes_per_session"`
}
