package proxyproto

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"
)

func TestRead(t *testing.T) {
	v4 := Header{Source: netip.MustParseAddrPort("203.0.113.7:51234"), Dest: netip.MustParseAddrPort("10.0.0.2:2222")}
	v6 := Header{Source: netip.MustParseAddrPort("[2001:db8::1]:40000"), Dest: netip.MustParseAddrPort("[2001:db8::2]:22")}
	// HAProxy's bytes for a TCP4 PROXY header, written out by hand.
	haproxyV2 := append([]byte("\r\n\r\n\x00\r\nQUIT\n"), 0x21, 0x11, 0x00, 0x0c,
		203, 0, 113, 7, 10, 0, 0, 2, 0xc8, 0x22, 0x08, 0xae)
	withTLV := append(append([]byte(nil), haproxyV2...), 0x04, 0x00, 0x01, 0xff) // a NOOP TLV
	withTLV[15] += 4
	cases := []struct {
		name string
		in   []byte
		want Header
		err  string
	}{
		{"v1 tcp4", []byte("PROXY TCP4 203.0.113.7 10.0.0.2 51234 2222\r\n"), v4, ""},
		{"v1 tcp6", []byte("PROXY TCP6 2001:db8::1 2001:db8::2 40000 22\r\n"), v6, ""},
		{"v1 unknown", []byte("PROXY UNKNOWN\r\n"), Header{}, ""},
		{"v1 encoded", AppendV1(nil, v4), v4, ""},
		{"v2 haproxy bytes", haproxyV2, v4, ""},
		{"v2 with tlv", withTLV, v4, ""},
		{"v2 tcp4 encoded", AppendV2(nil, v4), v4, ""},
		{"v2 tcp6 encoded", AppendV2(nil, v6), v6, ""},
		{"v2 local", AppendV2(nil, Header{}), Header{}, ""},
		{"ssh without header", []byte("SSH-2.0-OpenSSH_9.6\r\n"), Header{}, "no PROXY header"},
		{"v1 bad port", []byte("PROXY TCP4 203.0.113.7 10.0.0.2 99999 2222\r\n"), Header{}, "bad v1"},
		{"v1 family mismatch", []byte("PROXY TCP4 2001:db8::1 2001:db8::2 1 2\r\n"), Header{}, "do not match"},
		{"v1 endless", []byte("PROXY TCP4 " + strings.Repeat("1", 200)), Header{}, "longer than 107"},
		{"v2 truncated", haproxyV2[:20], Header{}, "v2 addresses"},
		{"v2 wrong version", append(append([]byte(nil), haproxyV2[:12]...), 0x11, 0x11, 0, 0), Header{}, "version 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			after := "SSH-2.0-client\r\n"
			if strings.Contains(c.name, "truncated") {
				after = "" // the connection ends mid-header
			}
			r := bufio.NewReader(io.MultiReader(bytes.NewReader(c.in), strings.NewReader(after)))
			got, err := Read(r)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want one saying %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			rest, _ := io.ReadAll(r)
			if string(rest) != "SSH-2.0-client\r\n" {
				t.Fatalf("bytes after the header: %q", rest)
			}
		})
	}
}

func listen(t *testing.T, l *Listener) (*Listener, string) {
	t.Helper()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l.Listener = inner
	t.Cleanup(func() { inner.Close() })
	return l, inner.Addr().String()
}

func TestListenerRealAddress(t *testing.T) {
	l, addr := listen(t, &Listener{})
	client := Header{Source: netip.MustParseAddrPort("198.51.100.9:6000"), Dest: netip.MustParseAddrPort("192.0.2.1:22")}
	go func() {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return
		}
		defer c.Close()
		c.Write(append(AppendV2(nil, client), "hello"...))
		io.Copy(io.Discard, c)
	}()
	c, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got := c.RemoteAddr().String(); got != "198.51.100.9:6000" {
		t.Fatalf("RemoteAddr %s, want the client's", got)
	}
	buf := make([]byte, 5)
	if _, err := io.ReadFull(c, buf); err != nil || string(buf) != "hello" {
		t.Fatalf("read %q, %v", buf, err)
	}
}

func TestListenerHeaderTimeout(t *testing.T) {
	l, addr := listen(t, &Listener{Timeout: 50 * time.Millisecond})
	silent, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	c, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	var ne net.Error
	if _, err := c.Read(make([]byte, 1)); !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("read from a client that never sent a header: %v, want a timeout", err)
	}
	if c.RemoteAddr().String() != silent.LocalAddr().String() {
		t.Fatalf("RemoteAddr %s, want the peer's %s", c.RemoteAddr(), silent.LocalAddr())
	}
}

func TestListenerUntrustedPeer(t *testing.T) {
	l, addr := listen(t, &Listener{Trusted: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	go func() {
		if c, err := l.Accept(); err == nil {
			t.Errorf("accepted a connection from untrusted %s", c.RemoteAddr())
		}
	}()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("untrusted peer: read %v, want EOF as the listener hangs up", err)
	}
	l.Listener.Close()
}
