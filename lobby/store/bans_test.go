package store

import (
	"net/netip"
	"testing"
)

func TestBanCovers(t *testing.T) {
	addr := netip.MustParseAddr("203.0.113.7")
	tests := []struct {
		target string
		key    string
		addr   netip.Addr
		want   bool
	}{
		{"SHA256:abc", "SHA256:abc", netip.Addr{}, true},
		{"SHA256:abc", "SHA256:abd", addr, false},
		{"203.0.113.7", "", addr, true},
		{"203.0.113.7", "", netip.MustParseAddr("::ffff:203.0.113.7"), true},
		{"203.0.113.0/24", "SHA256:abc", addr, true},
		{"203.0.114.0/24", "", addr, false},
		{"2001:db8::/32", "", netip.MustParseAddr("2001:db8::1"), true},
	}
	for _, tt := range tests {
		if got := (Ban{Target: tt.target}).Covers(tt.key, tt.addr); got != tt.want {
			t.Errorf("ban on %s covers %q %s: %v, want %v", tt.target, tt.key, tt.addr, got, tt.want)
		}
	}
	for in, want := range map[string]string{
		"SHA256:abc": "SHA256:abc", "203.0.113.7": "203.0.113.7", "::ffff:203.0.113.7": "203.0.113.7",
		"203.0.113.9/24": "203.0.113.0/24", "bob": "", "SHA256:": "", "300.1.1.1": "",
	} {
		got, err := BanTarget(in)
		if got != want || (err != nil) != (want == "") {
			t.Errorf("BanTarget(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
