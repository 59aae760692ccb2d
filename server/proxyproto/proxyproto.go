// Package proxyproto reads and writes the PROXY protocol (versions 1 and
// 2) that TCP load balancers such as HAProxy put before a connection's
// bytes to say who the client really is. Behind a balancer every
// connection comes from the balancer's address; wrapping the listener
// restores the client's, so per-IP limits and logs see real players.
//
// Spec: https://www.haproxy.org/download/2.9/doc/proxy-protocol.txt
package proxyproto

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strconv"
	"strings"
)

// v2Signature starts every version 2 header.
var v2Signature = []byte("\r\n\r\n\x00\r\nQUIT\n")

// Header is what a PROXY header says about a connection.
type Header struct {
	// Source is the client as the balancer saw it; Dest is the address the
	// client connected to. Both are invalid for a LOCAL (health check)
	// connection or an UNKNOWN protocol, where the peer address stands.
	Source, Dest netip.AddrPort
}

// ErrNoHeader means the connection did not start with a PROXY header.
var ErrNoHeader = errors.New("proxyproto: connection has no PROXY header")

// v1MaxLen is the longest version 1 line, CRLF included.
const v1MaxLen = 107

// Read reads one header, version 1 or 2, from the start of r.
func Read(r *bufio.Reader) (Header, error) {
	start, err := r.Peek(len(v2Signature))
	if err != nil && len(start) < 6 {
		return Header{}, fmt.Errorf("proxyproto: read header: %w", err)
	}
	switch {
	case bytes.Equal(start, v2Signature):
		return readV2(r)
	case bytes.HasPrefix(start, []byte("PROXY ")):
		return readV1(r)
	}
	return Header{}, ErrNoHeader
}

func readV1(r *bufio.Reader) (Header, error) {
	var line []byte
	for len(line) < v1MaxLen {
		b, err := r.ReadByte()
		if err != nil {
			return Header{}, fmt.Errorf("proxyproto: v1 header: %w", err)
		}
		line = append(line, b)
		if bytes.HasSuffix(line, []byte("\r\n")) {
			return parseV1(string(line[:len(line)-2]))
		}
	}
	return Header{}, errors.New("proxyproto: v1 header longer than 107 bytes")
}

func parseV1(line string) (Header, error) {
	f := strings.Split(line, " ")
	if len(f) >= 2 && f[1] == "UNKNOWN" {
		return Header{}, nil
	}
	if len(f) != 6 || (f[1] != "TCP4" && f[1] != "TCP6") {
		return Header{}, fmt.Errorf("proxyproto: bad v1 header %q", line)
	}
	src, err1 := v1Addr(f[2], f[4])
	dst, err2 := v1Addr(f[3], f[5])
	if err := errors.Join(err1, err2); err != nil {
		return Header{}, fmt.Errorf("proxyproto: bad v1 header %q: %w", line, err)
	}
	if src.Addr().Is4() != (f[1] == "TCP4") || dst.Addr().Is4() != src.Addr().Is4() {
		return Header{}, fmt.Errorf("proxyproto: v1 header %q: addresses do not match %s", line, f[1])
	}
	return Header{Source: src, Dest: dst}, nil
}

func v1Addr(ip, port string) (netip.AddrPort, error) {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return netip.AddrPort{}, err
	}
	p, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return netip.AddrPort{}, err
	}
	return netip.AddrPortFrom(a, uint16(p)), nil
}

func readV2(r *bufio.Reader) (Header, error) {
	var fixed [16]byte
	if _, err := io.ReadFull(r, fixed[:]); err != nil {
		return Header{}, fmt.Errorf("proxyproto: v2 header: %w", err)
	}
	verCmd, family := fixed[12], fixed[13]
	n := int(binary.BigEndian.Uint16(fixed[14:16]))
	if verCmd>>4 != 2 {
		return Header{}, fmt.Errorf("proxyproto: v2 header with version %d", verCmd>>4)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return Header{}, fmt.Errorf("proxyproto: v2 addresses: %w", err)
	}
	switch verCmd & 0xf {
	case 0: // LOCAL: the balancer itself, e.g. a health check
		return Header{}, nil
	case 1: // PROXY
	default:
		return Header{}, fmt.Errorf("proxyproto: v2 command %d", verCmd&0xf)
	}
	// The upper nibble is the address family, the lower the transport;
	// only TCP over IPv4 and IPv6 names a client we can use. Trailing TLVs
	// are skipped.
	switch family {
	case 0x11:
		if n < 12 {
			return Header{}, errors.New("proxyproto: short v2 IPv4 addresses")
		}
		src := netip.AddrFrom4([4]byte(body[0:4]))
		dst := netip.AddrFrom4([4]byte(body[4:8]))
		return Header{
			Source: netip.AddrPortFrom(src, binary.BigEndian.Uint16(body[8:10])),
			Dest:   netip.AddrPortFrom(dst, binary.BigEndian.Uint16(body[10:12])),
		}, nil
	case 0x21:
		if n < 36 {
			return Header{}, errors.New("proxyproto: short v2 IPv6 addresses")
		}
		src := netip.AddrFrom16([16]byte(body[0:16]))
		dst := netip.AddrFrom16([16]byte(body[16:32]))
		return Header{
			Source: netip.AddrPortFrom(src, binary.BigEndian.Uint16(body[32:34])),
			Dest:   netip.AddrPortFrom(dst, binary.BigEndian.Uint16(body[34:36])),
		}, nil
	}
	return Header{}, nil // UNSPEC, UDP or unix sockets: keep the peer address
}

// AppendV2 appends h as a version 2 header: PROXY for valid addresses of
// one family, LOCAL otherwise.
func AppendV2(b []byte, h Header) []byte {
	b = append(b, v2Signature...)
	src, dst := h.Source.Addr().Unmap(), h.Dest.Addr().Unmap()
	switch {
	case src.Is4() && dst.Is4():
		b = append(b, 0x21, 0x11, 0, 12)
		b = append(b, src.AsSlice()...)
		b = append(b, dst.AsSlice()...)
	case src.Is6() && dst.Is6() || src.IsValid() && dst.IsValid():
		b = append(b, 0x21, 0x21, 0, 36)
		s16, d16 := src.As16(), dst.As16()
		b = append(b, s16[:]...)
		b = append(b, d16[:]...)
	default:
		return append(b, 0x20, 0x00, 0, 0)
	}
	b = binary.BigEndian.AppendUint16(b, h.Source.Port())
	return binary.BigEndian.AppendUint16(b, h.Dest.Port())
}

// AppendV1 appends h as a version 1 (text) header.
func AppendV1(b []byte, h Header) []byte {
	src, dst := h.Source.Addr().Unmap(), h.Dest.Addr().Unmap()
	proto := "TCP6"
	switch {
	case !src.IsValid() || !dst.IsValid():
		return append(b, "PROXY UNKNOWN\r\n"...)
	case src.Is4() && dst.Is4():
		proto = "TCP4"
	default:
		src, dst = netip.AddrFrom16(src.As16()), netip.AddrFrom16(dst.As16())
	}
	return fmt.Appendf(b, "PROXY %s %s %s %d %d\r\n", proto, src, dst, h.Source.Port(), h.Dest.Port())
}

// HeaderFor describes a connection c accepted from a client, for passing
// it on to a backend.
func HeaderFor(c net.Conn) Header {
	return Header{Source: addrPort(c.RemoteAddr()), Dest: addrPort(c.LocalAddr())}
}

func addrPort(a net.Addr) netip.AddrPort {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.AddrPort()
	}
	return netip.AddrPort{}
}
