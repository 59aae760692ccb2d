package factories

import (
	"strconv"
	"strings"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/session/kit"
)

// describe words a move for the menu in the theme's language: the
// engine's Words of it, part after part, with a seat named as the table
// knows it. In English it reads as the engine's DescribeFor.
func describe(t kit.Theme, v *factories.View, s kit.Seats, mv factories.Move) string {
	var b strings.Builder
	for _, w := range mv.Words(*v) {
		for i, a := range w.Args {
			if a.Name == "Seat" {
				seat, _ := strconv.Atoi(a.Value)
				w.Args = append([]engine.Arg(nil), w.Args...)
				w.Args[i] = engine.Str("Seat", s.Name(seat))
			}
		}
		b.WriteString(kit.Say(t, "factories", w))
	}
	return b.String()
}
