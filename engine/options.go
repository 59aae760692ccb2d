package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// ReadOptions checks a room's options JSON against a game's Options for a
// game of seats and returns every option's value, defaults filled in. An
// unknown option, a value not among its choices, or an option set for a
// number of seats it does not apply to is refused with a reason a player
// can read.
func ReadOptions(opts []Option, seats int, raw json.RawMessage) (map[string]string, error) {
	given := map[string]string{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &given); err != nil {
			return nil, fmt.Errorf("game options must be a JSON object of strings: %w", err)
		}
	}
	out := make(map[string]string, len(opts))
	for _, o := range opts {
		v, set := given[o.Name]
		delete(given, o.Name)
		applies := o.Seats == 0 || o.Seats == seats
		switch {
		case set && !applies:
			return nil, fmt.Errorf("--%s is only for games of %d seat%s", o.Name, o.Seats, plural(o.Seats))
		case !applies:
			continue
		case !set || v == "":
			v = o.DefaultValue()
		case !slices.Contains(o.Choices, v):
			return nil, fmt.Errorf("--%s %q: choose %s", o.Name, v, orList(o.Choices))
		}
		out[o.Name] = v
	}
	if len(given) > 0 {
		names := make([]string, 0, len(given))
		for name := range given {
			names = append(names, name)
		}
		slices.Sort(names)
		return nil, fmt.Errorf("this game has no option --%s", names[0])
	}
	return out, nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// orList words choices as "a, b or c".
func orList(choices []string) string {
	if len(choices) < 2 {
		return strings.Join(choices, "")
	}
	return strings.Join(choices[:len(choices)-1], ", ") + " or " + choices[len(choices)-1]
}
