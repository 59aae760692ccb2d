package engine

import "errors"

// Takeback is what one seat may take back in a game that lets seats take
// moves back (see Undo): its moves since its last checkpoint, oldest
// first, each a Step of the game's own (what the move changed, as it was
// before), and why the move before them stands, for a refusal.
type Takeback[Step any] struct {
	Steps []Step `json:"steps,omitempty"`
	Why   string `json:"why,omitempty"`
}

// Takebacks are every seat's Takeback, by seat, as a game's state keeps
// them. They are nil while nobody has anything in them, so that a move
// and its undo leave a state as it was, byte for byte. A game empties
// them whenever a phase begins.
type Takebacks[Step any] []Takeback[Step]

// Of returns seat's Takeback; the zero one when there is none.
func (t Takebacks[Step]) Of(seat int) Takeback[Step] {
	if seat < 0 || seat >= len(t) {
		return Takeback[Step]{}
	}
	return t[seat]
}

// Keep records a move of seat, one of seats, that it may take back.
func (t *Takebacks[Step]) Keep(seats, seat int, step Step) {
	t.grow(seats)
	(*t)[seat].Steps = append((*t)[seat].Steps, step)
}

// Stand records a checkpoint: seat's move stands for good, for the reason
// why, and so does every move of seat before it.
func (t *Takebacks[Step]) Stand(seats, seat int, why string) {
	t.grow(seats)
	(*t)[seat] = Takeback[Step]{Why: why}
}

// Pop removes seat's newest step, which it must have, and returns it.
func (t *Takebacks[Step]) Pop(seat int) Step {
	steps := (*t)[seat].Steps
	n := len(steps) - 1
	st := steps[n]
	var zero Step
	steps[n] = zero // the step's slices are the caller's now
	(*t)[seat].Steps = steps[:n]
	if n == 0 {
		(*t)[seat].Steps = nil
	}
	t.tidy()
	return st
}

// Clone returns a deep copy of t, with clone copying each step.
func (t Takebacks[Step]) Clone(clone func(*Step) Step) Takebacks[Step] {
	if t == nil {
		return nil
	}
	c := make(Takebacks[Step], len(t))
	for i, tb := range t {
		c[i].Why = tb.Why
		if tb.Steps == nil {
			continue
		}
		c[i].Steps = make([]Step, len(tb.Steps))
		for j := range tb.Steps {
			c[i].Steps[j] = clone(&tb.Steps[j])
		}
	}
	return c
}

func (t *Takebacks[Step]) grow(seats int) {
	if *t == nil {
		*t = make(Takebacks[Step], seats)
	}
}

// tidy drops the record when nobody has anything in it.
func (t *Takebacks[Step]) tidy() {
	for _, tb := range *t {
		if len(tb.Steps) > 0 || tb.Why != "" {
			return
		}
	}
	*t = nil
}

// Record records seat's move just played, seat being one of seats: a
// step it may take back, which step makes, or, when why is not "", a
// checkpoint that stands for that reason.
func (t *Takebacks[Step]) Record(seats, seat int, why string, step func() Step) {
	if why != "" {
		t.Stand(seats, seat, why)
		return
	}
	t.Keep(seats, seat, step())
}

// Take plays the undo move for seat: its newest step comes off, and lift
// puts the game back as it was before that move. why is the game's
// reason seat may not take a move back now, "" when it may: the undo
// move is refused in those words.
func (t *Takebacks[Step]) Take(seat int, why string, lift func(Step)) error {
	if why != "" {
		return errors.New(why)
	}
	lift(t.Pop(seat))
	return nil
}

// Mark is where a game stood before a move, which every game judges the
// move by once it is played: the seat's own part, a P, as it was, the
// phase and round, and the random source.
type Mark[P any, Phase comparable] struct {
	Before P
	Phase  Phase
	Round  int
	RNG    RNG
}

// NewPhase reports whether the game is in another phase or round than
// at m: nothing from before then can be taken back.
func (m *Mark[P, Phase]) NewPhase(phase Phase, round int) bool {
	return phase != m.Phase || round != m.Round
}
