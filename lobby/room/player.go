package room

// Player is a person at a terminal. ID binds them to seats: their
// profile's (package players), which every key linked to it shares; guests get
// a fresh ID per connection.
type Player struct {
	ID string
	// Key is the fingerprint of the SSH key the player connected with
	// (empty for guests): bans, per-key limits and failed lookups count
	// by it, not by the profile.
	Key   string
	Name  string
	Guest bool
	// Addr is where the player connects from as the server's per-address
	// limits count it ("203.0.113.7", or an IPv6 /64); empty when the
	// server does not count by address. Failed room lookups are counted
	// by it as well as by ID (lookups.go).
	Addr string
	// From is where the player connects from (an IPv6 /64), whatever the
	// limits: a guest's seat word opens their seat only from the address
	// they sat down from (seatword.go). Empty when unknown.
	From string
	// Lang is the language tag the player's profile keeps ("pl"), which
	// beats their client's environment; "" when they chose none.
	Lang string
	// Plain is set when the player chose the line mode for every
	// terminal session.
	Plain bool
}
