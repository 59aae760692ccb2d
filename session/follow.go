package session

import (
	"sync/atomic"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/lobby"
)

// follow hands each of c's updates to post as an updateMsg, newest last,
// from a goroutine that runs only while there is one to hand on: between
// updates nothing waits on the room. A goroutine waiting on every room
// connection would cost every player at a table its stack.
func follow(c *lobby.Conn, post func(tea.Msg)) {
	var running atomic.Bool // one deliverer at a time, so updates keep their order
	deliver := func() {
		for {
			select {
			case u := <-c.Updates():
				post(updateMsg{conn: c, u: u}) // returns at once once the program has ended
			default:
				running.Store(false)
				// An update that came since the last look was told to a
				// deliverer still running: take it on, unless another has.
				if len(c.Updates()) == 0 || !running.CompareAndSwap(false, true) {
					return
				}
			}
		}
	}
	c.OnUpdate(func() {
		if running.CompareAndSwap(false, true) {
			go deliver()
		}
	})
}
