package furnace

import "strconv"

// Goods is an amount of the game's four resources and money: what a player
// holds, what a card line pays or gains. The supply is unlimited (the
// rulebook's multiplier tiles stand for any amount), so these are plain
// counters with no caps.
type Goods struct {
	Coal int `json:"coal"`
	Iron int `json:"iron"`
	Oil  int `json:"oil"`
	// Tokens are upgrade tokens (the rulebook's "marcadores de Melhoria").
	Tokens int `json:"tokens"`
	Money  int `json:"money"`
}

// Plus returns g and h added up.
func (g Goods) Plus(h Goods) Goods {
	return Goods{g.Coal + h.Coal, g.Iron + h.Iron, g.Oil + h.Oil, g.Tokens + h.Tokens, g.Money + h.Money}
}

// Minus returns g less h.
func (g Goods) Minus(h Goods) Goods {
	return Goods{g.Coal - h.Coal, g.Iron - h.Iron, g.Oil - h.Oil, g.Tokens - h.Tokens, g.Money - h.Money}
}

// Times returns g n times over.
func (g Goods) Times(n int) Goods {
	return Goods{g.Coal * n, g.Iron * n, g.Oil * n, g.Tokens * n, g.Money * n}
}

// Covers reports whether g holds at least h of everything.
func (g Goods) Covers(h Goods) bool {
	return g.Coal >= h.Coal && g.Iron >= h.Iron && g.Oil >= h.Oil && g.Tokens >= h.Tokens && g.Money >= h.Money
}

// Affords returns how many times, up to limit, g can pay h.
func (g Goods) Affords(h Goods, limit int) int {
	n := limit
	for _, pair := range [...][2]int{{g.Coal, h.Coal}, {g.Iron, h.Iron}, {g.Oil, h.Oil}, {g.Tokens, h.Tokens}, {g.Money, h.Money}} {
		if pair[1] > 0 {
			n = min(n, pair[0]/pair[1])
		}
	}
	return max(n, 0)
}

// of returns the part of g of the kinds h has, to tell a player what they
// hold of what a line asks.
func (g Goods) of(h Goods) Goods {
	keep := func(have, want int) int {
		if want == 0 {
			return 0
		}
		return have
	}
	return Goods{keep(g.Coal, h.Coal), keep(g.Iron, h.Iron), keep(g.Oil, h.Oil), keep(g.Tokens, h.Tokens), keep(g.Money, h.Money)}
}

// IsZero reports whether g is nothing at all.
func (g Goods) IsZero() bool { return g == Goods{} }

// Resources counts coal, iron, oil and upgrade tokens, the last tie-break.
func (g Goods) Resources() int { return g.Coal + g.Iron + g.Oil + g.Tokens }

// String words g for the game log: "2 coal, 1 iron and 4 money".
func (g Goods) String() string {
	var parts [5]string
	n := 0
	add := func(k int, word string) {
		if k != 0 {
			parts[n] = strconv.Itoa(k) + " " + word
			n++
		}
	}
	add(g.Coal, "coal")
	add(g.Iron, "iron")
	add(g.Oil, "oil")
	if g.Tokens == 1 {
		add(1, "upgrade token")
	} else {
		add(g.Tokens, "upgrade tokens")
	}
	add(g.Money, "money")
	switch n {
	case 0:
		return "nothing"
	case 1:
		return parts[0]
	}
	out := parts[0]
	for _, p := range parts[1 : n-1] {
		out += ", " + p
	}
	return out + " and " + parts[n-1]
}
