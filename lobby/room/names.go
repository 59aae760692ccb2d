package room

import (
	"fmt"

	"github.com/smokestack/smokestack/lobby/players"
	"github.com/smokestack/smokestack/lobby/store"
)

// seatName is name as seat of seats shows it: name itself, or name with a
// suffix ("alice-2") when another seat already shows that name, so nobody
// at a table is mistaken for another.
func seatName(seats []store.Seat, seat int, name string) string {
	taken := func(n string) bool {
		for i, s := range seats {
			if i != seat && !s.Free() && players.SameName(s.Name, n) {
				return true
			}
		}
		return false
	}
	if !taken(name) {
		return name
	}
	for i := 2; ; i++ {
		if n := fmt.Sprintf("%s-%d", name, i); !taken(n) {
			return n
		}
	}
}
