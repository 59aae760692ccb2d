package server

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// inbox is a session channel as its handler sees it, with the client's
// input read off the channel as it arrives and held here until the
// session reads it.
//
// The SSH library gives every channel a 2 MiB window that cannot be
// changed: whatever the session has not read yet waits in the server's
// memory, not in the client's window. A session reading at
// Limits.InputRate, or not reading at all, let every channel hold 2 MiB
// (TestInputFloodIsBounded). So the inbox reads the channel at once,
// from the moment it opens, and holds what the session has not read
// against four budgets: the session's, its connection's, its address's
// and the server's (Limits.InputBuffer, ConnInputBuffer,
// AddrInputBuffer, InputBudget). Input
// past any of them ends the connection with a reason; the rest of what
// arrives is read and dropped until the channel closes, so the library
// never holds more than a packet or two.
type inbox struct {
	gossh.Channel // writes and requests go straight through
	s             *Server
	cs            *connState      // nil for a connection the gate does not know
	cc            *countedChannel // the channel as the server accepted it

	mu   sync.Mutex
	more sync.Cond // signalled when held grows or err is set
	held []byte    // read off the channel, not yet by the session
	err  error     // why the channel's input ended, once it has
	over bool      // past a budget, or the session over: input is dropped
}

// inboxRead is how much the inbox reads off the channel at a time: one
// buffer of it per open session, waiting for the client's next keys,
// which come a few bytes a packet. More than this at once is read in
// the larger buffers of a flood (floodReads).
const inboxRead = 256

// openInbox starts reading ch's input, and its stderr, which no session
// reads but which takes the same window.
func (s *Server) openInbox(ch gossh.Channel, cs *connState) *inbox {
	in := &inbox{Channel: ch, s: s, cs: cs}
	in.more.L = &in.mu
	go in.fill()
	go in.drainStderr()
	return in
}

// drainStderr reads the channel's stderr to its end, counting it against
// its connection's allowance (stderrInput, transport.go) and dropping it.
// (io.Copy to io.Discard would hold an 8 KiB buffer for as long as the
// read waits; clients send nothing here, so what waits is small.)
func (in *inbox) drainStderr() {
	var buf [128]byte
	r := in.Channel.Stderr()
	for {
		n, err := r.Read(buf[:])
		if n > 0 && in.cs != nil {
			in.cs.took(n)
			in.cs.chargeStderr(n)
		}
		if err != nil {
			return
		}
	}
}

// floodReads are the buffers a channel's input is read into while more
// is waiting than inboxRead: a flood is taken off the SSH library a
// packet at a time, not a keystroke's worth, so the library holds little
// of it at the peak (TestInputPeakIsBounded).
var floodReads = sync.Pool{New: func() any { return new([8 << 10]byte) }}

// fill reads the channel until its input ends.
func (in *inbox) fill() {
	small := make([]byte, inboxRead)
	buf := small
	var flood *[8 << 10]byte
	defer func() {
		if flood != nil {
			floodReads.Put(flood)
		}
	}()
	for {
		n, err := in.Channel.Read(buf)
		if n > 0 {
			if in.cs != nil {
				in.cs.took(n)
			}
			in.hold(buf[:n])
		}
		if err != nil {
			in.mu.Lock()
			in.err = err
			in.more.Broadcast()
			in.mu.Unlock()
			return
		}
		switch {
		case flood == nil && n == len(buf): // more may be waiting
			flood = floodReads.Get().(*[8 << 10]byte)
			buf = flood[:]
		case flood != nil && n < len(buf): // taken: wait with the small one
			floodReads.Put(flood)
			flood, buf = nil, small
		}
	}
}

// hold keeps p for the session, unless that would pass a budget: then
// the connection is ended and the input dropped from now on.
func (in *inbox) hold(p []byte) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.over {
		return
	}
	reason := in.charge(len(p))
	if reason == "" {
		in.held = append(in.held, p...)
		in.more.Broadcast()
		return
	}
	in.over = true
	in.release(len(in.held))
	in.held = nil
	in.more.Broadcast()
	if reason != "ending" {
		go in.s.inputOver(in, reason)
	}
}

// charge counts n more bytes held against each budget, or returns the
// reason for the first it would pass ("ending" for a connection the
// server is ending), having counted nothing. The caller holds in.mu.
func (in *inbox) charge(n int) string {
	lim := in.s.cfg.Limits
	if in.cs != nil && in.cs.endingNote() != "" {
		return "ending" // its sessions are told to go: nothing more is read
	}
	if lim.InputBuffer > 0 && len(in.held)+n > lim.InputBuffer {
		return "input_buffer"
	}
	if in.cs != nil && !in.cs.input.take(n, lim.ConnInputBuffer) {
		return "conn_input_buffer"
	}
	if in.cs != nil && in.cs.addrInput != nil && !in.cs.addrInput.take(n, lim.AddrInputBuffer) {
		in.cs.input.give(n)
		return "addr_input_buffer"
	}
	if !in.s.inputHeld.take(n, lim.InputBudget) {
		if in.cs != nil {
			in.cs.input.give(n)
			if in.cs.addrInput != nil {
				in.cs.addrInput.give(n)
			}
		}
		return "input_budget"
	}
	return ""
}

// release gives n held bytes back to the connection's and the server's
// budgets. The caller holds in.mu.
func (in *inbox) release(n int) {
	if in.cs != nil {
		in.cs.input.give(n)
		if in.cs.addrInput != nil {
			in.cs.addrInput.give(n)
		}
	}
	in.s.inputHeld.give(n)
}

// Stderr is the channel's stderr, as a type that knows its channel
// (channelOf).
func (in *inbox) Stderr() io.ReadWriter { return inboxStderr{in.Channel.Stderr(), in} }

// inboxStderr is an inbox's stderr.
type inboxStderr struct {
	io.ReadWriter
	in *inbox
}

// Close closes the channel, letting go of the input its session did not
// read.
func (in *inbox) Close() error {
	in.drop()
	return in.Channel.Close()
}

// drop lets go of the input the session has not read, once it never
// will, and of any that comes after.
func (in *inbox) drop() {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.over = true
	in.release(len(in.held))
	in.held = nil
	in.more.Broadcast()
}

// Read hands the session what the client sent, waiting for some.
func (in *inbox) Read(p []byte) (int, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	for len(in.held) == 0 && in.err == nil {
		in.more.Wait()
	}
	if len(in.held) == 0 {
		return 0, in.err
	}
	n := copy(p, in.held)
	in.held = in.held[n:]
	in.release(n)
	if len(in.held) == 0 {
		in.held = nil // an idle session holds no buffer
	}
	return n, nil
}

// budget counts bytes held against a limit.
type budget struct{ n atomic.Int64 }

// take counts n more bytes unless that would pass limit (0: none).
func (b *budget) take(n, limit int) bool {
	if b.n.Add(int64(n)) > int64(limit) && limit > 0 {
		b.n.Add(-int64(n))
		return false
	}
	return true
}

func (b *budget) give(n int) { b.n.Add(-int64(n)) }

// inputNotes are what a client whose input passed a budget is told, by
// the budget's reason.
var inputNotes = map[string]string{
	"input_buffer":      "you sent %s more than a session reads; this connection is closed",
	"conn_input_buffer": "you sent %s more than this connection's sessions read; it is closed",
	"addr_input_buffer": "you sent %s more than your address's sessions read; this connection is closed",
	"input_budget":      "the server holds too much unread input right now; this connection is closed",
}

// inputOver ends the connection whose input passed a budget, telling
// its sessions why. The server-wide budget can be passed by a client
// that sent little, so only the other two make its address suspect.
func (s *Server) inputOver(in *inbox, reason string) {
	cs := in.cs
	lim := s.cfg.Limits
	size := map[string]int{"input_buffer": lim.InputBuffer, "conn_input_buffer": lim.ConnInputBuffer,
		"addr_input_buffer": lim.AddrInputBuffer}[reason]
	note := inputNotes[reason]
	if size > 0 {
		note = fmt.Sprintf(note, byteSize(size))
	}
	if cs == nil {
		s.refuse(reason)
		fmt.Fprintf(in.Stderr(), "smokestack: %s\r\n", note)
		_ = in.Close()
		return
	}
	// Nothing more is read of it: a flood read and dropped until the
	// connection closes would cost the server what reading it does.
	cs.stopReading()
	if !s.endConnState(cs, nil, note) {
		return // another session's input, or another reason, ends it
	}
	s.refuse(reason, "remote", cs.addr.String())
	if reason != "input_budget" {
		s.suspects.note(reason, "", addrKey(cs.addr), time.Now())
	}
}

// byteSize says n bytes in KiB or MiB when it is a whole number of them.
func byteSize(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
