package session

import (
	"sync/atomic"
	"time"

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

// poster posts its message to the program each time it is told to, one at
// a time: told again while one is on its way, it posts nothing more, the
// one on its way covering both, since the screen reads the newest state
// when it takes it. The screen calls taken first thing when it does, so a
// later tell posts again.
type poster struct {
	post func(tea.Msg)
	msg  tea.Msg
	out  atomic.Bool // a message is on its way
}

func (p *poster) tell() {
	if p.out.CompareAndSwap(false, true) {
		go p.post(p.msg) // returns at once once the program has ended
	}
}

func (p *poster) taken() { p.out.Store(false) }

// MoveStored is when the move this update is the first to show was
// stored, if it is another seat's: the server times the frame that shows
// it from there (lobby.Update.Stored).
func (m updateMsg) MoveStored() time.Time { return m.u.Stored }
