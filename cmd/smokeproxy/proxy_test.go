package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/pires/go-proxyproto"
)

// backend answers each connection with its name and the client address it
// was told about, then echoes one line.
func backend(t *testing.T, name string) string {
	t.Helper()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inner.Close() })
	l := &proxyproto.Listener{Listener: inner}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				io.WriteString(c, name+" "+c.RemoteAddr().String()+"\n")
				line, _ := bufio.NewReader(c).ReadString('\n')
				io.WriteString(c, line)
			}()
		}
	}()
	return inner.Addr().String()
}

func deadAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func TestProxySpreadsSkipsDeadAndSendsClientAddress(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p := &Proxy{Backends: []string{backend(t, "a"), deadAddr(t), backend(t, "b")}, SendProxy: "v2"}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error)
	go func() { served <- p.Serve(ctx, l) }()

	seen := map[string]int{}
	for i := range 6 {
		c, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(c)
		hello, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		name, addr, _ := strings.Cut(strings.TrimSpace(hello), " ")
		if addr != c.LocalAddr().String() {
			t.Fatalf("backend saw client %s, want %s", addr, c.LocalAddr())
		}
		seen[name]++
		io.WriteString(c, "ping\n")
		if echo, _ := r.ReadString('\n'); echo != "ping\n" {
			t.Fatalf("echo %q", echo)
		}
		c.Close()
	}
	if seen["a"] == 0 || seen["b"] == 0 || seen["a"]+seen["b"] != 6 {
		t.Fatalf("connections per backend: %v", seen)
	}
	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}
