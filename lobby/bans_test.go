package lobby

import (
	"context"
	"net/netip"
	"testing"
	"time"
)

// TestBanContract holds every store's bans to the same behaviour: stored,
// replaced by target, lapsing on time, lifted.
func TestBanContract(t *testing.T) {
	for _, kind := range storeKinds {
		t.Run(kind.name, func(t *testing.T) {
			ctx := context.Background()
			s, ok := kind.open(t).(BanStore)
			if !ok {
				t.Fatalf("%s store keeps no bans", kind.name)
			}
			// Unique targets, as a shared Redis may hold others' bans.
			key := "SHA256:" + newCode()
			addr := "198.51.100.7"
			forever := Ban{Target: key, By: "op (SHA256:op)", At: t0}
			brief := Ban{Target: addr, Until: t0.Add(time.Hour), By: "op (SHA256:op)", At: t0.Add(time.Second)}
			for _, b := range []Ban{forever, brief} {
				if err := s.Ban(ctx, b); err != nil {
					t.Fatal(err)
				}
			}
			has := func(at time.Time, want ...Ban) {
				t.Helper()
				bans, err := s.Bans(ctx, at)
				if err != nil {
					t.Fatal(err)
				}
				got := map[string]Ban{}
				for _, b := range bans {
					got[b.Target] = b
				}
				for _, w := range []Ban{forever, brief} {
					_, in := got[w.Target]
					if want := contains(want, w.Target); in != want {
						t.Errorf("at %s: ban on %s in force %v, want %v", at, w.Target, in, want)
					}
				}
				for _, w := range want {
					if g := got[w.Target]; !g.Until.Equal(w.Until) || g.By != w.By || !g.At.Equal(w.At) {
						t.Errorf("ban on %s stored as %+v, want %+v", w.Target, g, w)
					}
				}
			}
			has(t0, forever, brief)
			has(t0.Add(2*time.Hour), forever) // the brief one lapsed

			// Banning again replaces: the address is banned for good now.
			brief.Until = time.Time{}
			if err := s.Ban(ctx, brief); err != nil {
				t.Fatal(err)
			}
			has(t0.Add(2*time.Hour), forever, brief)

			if found, err := s.Unban(ctx, key); err != nil || !found {
				t.Fatalf("unban %s: %v, %v", key, found, err)
			}
			if found, err := s.Unban(ctx, key); err != nil || found {
				t.Fatalf("unban %s twice: %v, %v", key, found, err)
			}
			has(t0, brief)
		})
	}
}

func contains(bans []Ban, target string) bool {
	for _, b := range bans {
		if b.Target == target {
			return true
		}
	}
	return false
}

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
