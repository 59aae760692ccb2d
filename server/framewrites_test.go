package server

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// sshPair is a real SSH connection over loopback TCP: the server's end
// of it as the gate holds it (connState), its session channels as the
// server accepted them, and what the client read on each.
type sshPair struct {
	cs     *connState
	chans  chan gossh.Channel
	client *gossh.Client
	mu     sync.Mutex
	read   []*bytes.Buffer // by channel, in the order they opened
	done   sync.WaitGroup
}

func newSSHPair(tb testing.TB) *sshPair {
	tb.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	host, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		tb.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ln.Close() })
	p := &sshPair{chans: make(chan gossh.Channel, 4)}
	accepted := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			accepted <- err
			return
		}
		p.cs = &connState{Conn: c}
		cfg := &gossh.ServerConfig{NoClientAuth: true}
		cfg.AddHostKey(host)
		conn, chans, reqs, err := gossh.NewServerConn(ungated{p.cs}, cfg)
		if err != nil {
			accepted <- err
			return
		}
		tb.Cleanup(func() { conn.Close() })
		go gossh.DiscardRequests(reqs)
		accepted <- nil
		for nc := range chans {
			ch, creqs, err := nc.Accept()
			if err != nil {
				continue
			}
			go gossh.DiscardRequests(creqs)
			p.chans <- ch
		}
	}()
	p.client, err = gossh.Dial("tcp", ln.Addr().String(), &gossh.ClientConfig{User: "t", HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { p.client.Close() })
	if err := <-accepted; err != nil {
		tb.Fatal(err)
	}
	return p
}

// open opens a session channel; the client reads what the server writes
// on it into read[i]. It returns the server's end.
func (p *sshPair) open(tb testing.TB) (gossh.Channel, int) {
	tb.Helper()
	ch, reqs, err := p.client.OpenChannel("session", nil)
	if err != nil {
		tb.Fatal(err)
	}
	go gossh.DiscardRequests(reqs)
	buf := new(bytes.Buffer)
	p.mu.Lock()
	i := len(p.read)
	p.read = append(p.read, buf)
	p.mu.Unlock()
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		b := make([]byte, 32<<10)
		for {
			n, err := ch.Read(b)
			p.mu.Lock()
			buf.Write(b[:n])
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return <-p.chans, i
}

// waitRead waits until the client has read n bytes on channel i.
func (p *sshPair) waitRead(tb testing.TB, i, n int) string {
	tb.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		p.mu.Lock()
		got := p.read[i].String()
		p.mu.Unlock()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			tb.Fatalf("the client read %d of %d bytes", len(got), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// A frame written as a terminal's frames are (lockedWriter, maxWrite
// bytes a packet) is one write on its connection, however many packets
// it takes, and reaches the client whole.
func TestFrameIsOneWrite(t *testing.T) {
	p := newSSHPair(t)
	ch, i := p.open(t)
	w := &lockedWriter{mu: new(sync.Mutex), w: ch, conn: p.cs}
	frame := strings.Repeat("0123456789abcdef", 10*maxWrite/16+3) // 11 packets
	before := p.cs.writeCount()
	if n, err := w.Write([]byte(frame)); n != len(frame) || err != nil {
		t.Fatalf("Write: %d of %d, %v", n, len(frame), err)
	}
	if got := p.cs.writeCount() - before; got != 1 {
		t.Errorf("a frame of %d packets took %d writes, want 1", len(frame)/maxWrite+1, got)
	}
	if got := p.waitRead(t, i, len(frame)); got != frame {
		t.Errorf("the client read %d bytes, not the frame", len(got))
	}
	// The same without holding: a write per packet, which is what the
	// test above would see if the holding went.
	bare := &lockedWriter{mu: new(sync.Mutex), w: ch}
	before = p.cs.writeCount()
	_, _ = bare.Write([]byte(frame))
	if got := p.cs.writeCount() - before; got < 11 {
		t.Errorf("unheld, a frame of 11 packets took %d writes", got)
	}
	// Nothing is held once the frame is out: an idle connection
	// borrows no buffer.
	p.cs.out.mu.Lock()
	held := p.cs.out.buf
	p.cs.out.mu.Unlock()
	if held != nil {
		t.Errorf("the connection still holds a buffer after its frames")
	}
}

// Frames written at once on two sessions of one connection, and the
// library's own packets between them, reach the client whole and in
// order: what is held goes out in the order the library sealed it, or
// the connection would break.
func TestHeldWritesKeepOrder(t *testing.T) {
	p := newSSHPair(t)
	var wg sync.WaitGroup
	var want [2]string
	idx := [2]int{}
	for k := range 2 {
		ch, i := p.open(t)
		idx[k] = i
		mu := new(sync.Mutex)
		w := &lockedWriter{mu: mu, w: ch, conn: p.cs}
		var all strings.Builder
		for f := range 40 {
			all.WriteString(strings.Repeat(string(rune('a'+k*2+f%2)), 1+f*337%(5*maxWrite)))
		}
		want[k] = all.String()
		wg.Go(func() {
			for f := range 40 {
				frame := strings.Repeat(string(rune('a'+k*2+f%2)), 1+f*337%(5*maxWrite))
				if _, err := w.Write([]byte(frame)); err != nil {
					t.Error(err)
					return
				}
				if f%7 == 0 {
					// A packet of the library's own, written while
					// the other session's frame may be held.
					_, _, _ = p.client.Conn.SendRequest("keepalive@openssh.com", true, nil)
				}
			}
		})
	}
	wg.Wait()
	for k := range 2 {
		if got := p.waitRead(t, idx[k], len(want[k])); got != want[k] {
			t.Errorf("session %d: the client read %d bytes that differ from the %d written", k, len(got), len(want[k]))
		}
	}
}

// A connection whose write fails says so to the frame, and to every
// write after it: nothing written after a lost packet may go out.
func TestHeldWriteFailureEndsTheConnection(t *testing.T) {
	p := newSSHPair(t)
	ch, _ := p.open(t)
	w := &lockedWriter{mu: new(sync.Mutex), w: ch, conn: p.cs}
	p.cs.Conn.Close() // under the library: its writes fail
	if _, err := w.Write([]byte(strings.Repeat("x", 3*maxWrite))); err == nil {
		t.Fatal("a frame on a closed connection reported no error")
	}
	if _, err := p.cs.Write([]byte("later")); err == nil {
		t.Error("a write after a failed one reported no error")
	}
}

// ungated is a connState of no server: it closes its connection alone.
type ungated struct{ *connState }

func (u ungated) Close() error { return u.Conn.Close() }

var _ io.Writer = (*connState)(nil)
