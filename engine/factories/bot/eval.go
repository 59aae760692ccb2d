package bot

import (
	"math"
	"slices"

	"github.com/smokestack/smokestack/engine/factories"
)

// judge scores one seat's position in points: goods and prestige count
// fully, everything else (resources, cards, buildings' future output,
// unused dice) at what it is expected to turn into before the game ends.
type judge struct {
	seat int
	// left estimates the full rounds still to play after this one.
	left float64
	// Points per metal, energy and blueprint in hand.
	metal, energy, card float64
	// dice is true in the work phase, when unplaced dice are still worth
	// something; after a market move the next roll is not ours to see.
	dice bool
	// building is a bonus per building in the compound: in solo play each
	// one brings the end nearer, before The Machine grows too strong.
	building float64
	// rival is what the strongest opponent gains in a round, charged for
	// every round left: ending sooner denies it.
	rival float64
	// w are the weights in use: solo play has its own.
	w *weights
	// memo, when set, remembers hands already scored (see handMemo).
	memo *handMemo
}

// handMemo remembers the scores of hands a search has judged: a beam's
// children mostly keep their parent's hand and compound (a die placed
// for metal changes neither), and scoring a hand is most of what a
// judgement costs. An entry holds its whole key, so a hit is the score
// the judge would work out: the same float, not an approximation.
type handMemo struct {
	entries [256]handEntry
}

type handEntry struct {
	key   handKey
	value float64
	ok    bool
}

// handKey is everything a hand's score depends on: the cards (each
// physical card is in a hand at most once), what the compound holds, and
// the judge's prices and rounds left.
type handKey struct {
	hand, designs             [2]uint64
	size, monuments, beacons  int
	left, metal, energy, card float64
	w                         *weights
}

// handMemoed is hand through j.memo, when j has one.
func (j judge) handMemoed(hand []factories.Card, h *holding) float64 {
	if j.memo == nil || len(hand) == 0 {
		return j.hand(hand, h)
	}
	k := handKey{designs: h.designs, size: len(hand), monuments: h.monuments, beacons: h.beacons,
		left: j.left, metal: j.metal, energy: j.energy, card: j.card, w: j.w}
	for _, c := range hand {
		if c < 0 || c >= 128 {
			return j.hand(hand, h)
		}
		k.hand[c/64] |= 1 << (c % 64)
	}
	x := (k.hand[0] ^ k.hand[1]*0x9e3779b97f4a7c15 ^ k.designs[0]*0xbf58476d1ce4e5b9 ^ k.designs[1]) * 0x94d049bb133111eb
	e := &j.memo.entries[x>>56]
	if e.ok && e.key == k {
		return e.value
	}
	e.key, e.value, e.ok = k, j.hand(hand, h), true
	return e.value
}

// weights are the judge's tuning knobs (see docs/bots.md).
type weights struct {
	// Points per metal, energy and blueprint in hand, early in the game.
	metal, energy, card float64
	// soloBuilding is the judge's building bonus in solo play.
	soloBuilding float64
	// plans is how many cards in hand count as buildings to come.
	plans int
	// race scales what The Machine is expected to gain per round left.
	race float64
	// energyStock and metalStock are the stocks kept at full value; more
	// is worth a third as much, as it waits for a use.
	energyStock, metalStock int
	// output scales what buildings are expected to make per round.
	output float64
	// converters scales what the buildings that take no dice (Incinerator,
	// Refinery, Battery Factory, Recycling Plant) make per round: it comes
	// on top of the dice's work.
	converters float64
	// scale multiplies, by building name, the per-round table (see
	// perRound); a name not in it counts as 1.
	scale map[string]float64
	// made is what each printed design makes per round under these
	// weights: the table times scale, and times converters for the
	// buildings that take no dice. index fills it in.
	made []float64
	// pair is the share of what building a blueprint gains that counts
	// while the hand holds a partner of its tool to pay with (a lone card
	// counts 0.3: it waits for a partner).
	pair float64
}

// tune holds the weights for games between seats; soloTune those against
// The Machine, which were tuned apart so that neither disturbs the other.
var (
	tune = weights{metal: 0.45, energy: 0.22, card: 0.33, soloBuilding: 0.5, plans: 2, race: 1, energyStock: 6, metalStock: factories.StoreLimit, output: 1, converters: 1, pair: 0.6}
	// Against The Machine, future output counts for little: its score grows
	// every round, so points now and buildings that bring the end nearer
	// beat an engine that pays off late, and metal past a small stock is
	// better spent than kept. Tuned by coordinate search on cheap solo games
	// (see docs/bots.md).
	soloTune = weights{metal: 0.35, energy: 0.22, card: 0.45, soloBuilding: 0.45, plans: 1, race: 0.5, energyStock: 6, metalStock: 5, output: 0.23, converters: 3.6, pair: 0.42,
		scale: map[string]float64{
			factories.RecyclingPlant: 1.4, factories.BatteryFactory: 1.4, factories.Refinery: 0.6,
			factories.Motherlode: 1.4, factories.Manufactory: 1.4, factories.TrashCompactor: 0.6,
			factories.NuclearPlant: 1.4, factories.FulfillmentCenter: 1.4, factories.PowerPlant: 1.4,
			factories.AssemblyLine: 0.6, factories.Golem: 1.4,
		}}
)

func init() {
	tune.index()
	soloTune.index()
}

// index works out w.made from the table, scale and converters.
func (w *weights) index() {
	w.made = w.made[:0]
	for _, b := range factories.Blueprints() {
		m := perRound(b.Name)
		if f, ok := w.scale[b.Name]; ok {
			m *= f
		}
		if converter(b.Name) {
			m *= w.converters
		}
		w.made = append(w.made, m)
	}
}

func newJudge(v factories.View) judge {
	progress := 0.0
	for _, p := range v.Players {
		progress = max(progress, float64(p.Goods)/factories.GoodsToEnd, float64(len(p.Compound))/factories.BuildingsEnd)
	}
	return judgeAt(v.Seat, v.Seats, v.Phase, v.Round, v.FinalRound, progress, v.Machine)
}

// stateJudge is newJudge for a seat of a whole (guessed) world.
func stateJudge(s *factories.State, seat int) judge {
	progress := 0.0
	for i := range s.Players {
		p := &s.Players[i]
		progress = max(progress, float64(p.Goods)/factories.GoodsToEnd, float64(len(p.Compound))/factories.BuildingsEnd)
	}
	return judgeAt(seat, len(s.Players), s.Phase, s.Round, s.FinalRound, progress, s.Machine)
}

// judgeAt makes the judge of seat at a point of the game; progress is the
// leading seat's share of the way to 12 goods or 10 buildings.
func judgeAt(seat, seats int, phase factories.Phase, round, finalRound int, progress float64, m *factories.Machine) judge {
	j := judge{seat: seat, left: roundsLeft(round, finalRound, progress, m), dice: phase == factories.WorkPhase, w: &tune}
	if seats == 1 {
		j.w = &soloTune
	}
	// Resources are worth what they build or make later; in the last
	// round only what the search converts now counts, so they drop to a
	// tie-breaker.
	j = j.until(j.left)
	if seats == 1 {
		j.building = j.w.soloBuilding
		if m != nil {
			j.rival = j.w.race * machineRate(m)
		}
	}
	return j
}

// until returns j for a game known to last left more rounds.
func (j judge) until(left float64) judge {
	j.left = max(left, 0)
	f := 0.05
	if j.left > 0 {
		f = min(1, (j.left+1)/3)
	}
	j.metal, j.energy, j.card = j.w.metal*f, j.w.energy*f, j.w.card*f
	return j
}

// machineRate is what The Machine is expected to score next round: one
// card and a good for each type whose die rolls at most its card count.
func machineRate(m *factories.Machine) float64 {
	count := map[factories.Type]int{}
	for _, c := range m.Compound {
		count[c.Info().Type]++
	}
	rate := 1.1
	for _, t := range []factories.Type{factories.Production, factories.Utility, factories.Training, factories.Special} {
		rate += float64(min(count[t], 6)) / 6
	}
	return rate
}

// roundsLeft estimates how many full rounds follow the current one: exact
// once the end is triggered, otherwise from how fast the leader is racing
// to 12 goods or 10 buildings.
func roundsLeft(round, finalRound int, progress float64, m *factories.Machine) float64 {
	if finalRound > 0 {
		return float64(max(finalRound-round, 0))
	}
	if m != nil {
		progress = max(progress, float64(m.Goods)/factories.GoodsToEnd)
	}
	played := float64(round - 1)
	// A typical game triggers its end around round 10; early on that prior
	// dominates, later the observed pace does.
	const prior = 10.0
	pace := (progress + 1/prior*2) / (played + 2)
	toTrigger := math.Ceil(max(0, 1-progress) / pace)
	return min(max(toTrigger, 1), 12)
}

// value scores seat's position in s.
func (j judge) value(s *factories.State) float64 {
	p := &s.Players[j.seat]
	if s.FinalRound > 0 && s.Phase != factories.GameOver {
		// A move that triggers the end fixes the rounds left; in solo
		// play that also stops The Machine's growth sooner.
		j = j.until(float64(s.FinalRound - s.Round))
	}
	h := holdingOf(p.Compound)
	v := float64(p.Goods + h.prestige)
	v += j.resources(p.Metal, p.Energy)
	v += j.handMemoed(p.Hand, &h)
	v += j.future(p.Compound)
	v += j.building * float64(len(p.Compound))
	v -= j.rival * j.left
	// Contractors hired this market phase pay off in the coming work phase.
	if p.Foreman {
		v += 1.8
	}
	v += 1.0*float64(p.HiredHands) + 0.7*float64(p.Specialists)
	if j.dice && s.Phase == factories.WorkPhase && !p.Done {
		if p.SettingDice {
			v += 4 * 0.6
		}
		for _, d := range p.Dice {
			if !d.Placed {
				v += 0.9 * j.die(d)
			}
		}
	}
	return v
}

// resources scores metal and energy. Energy comes easily and piles up, so
// past a working stock it is worth less, and anything over the limit of 12
// will be discarded at the end of the round.
func (j judge) resources(metal, energy int) float64 {
	keep := min(metal+energy, factories.StoreLimit)
	m := min(metal, keep)
	e := keep - m
	ms := min(m, j.w.metalStock)
	es := min(e, j.w.energyStock)
	return j.metal*(float64(ms)+float64(m-ms)/3) + j.energy*(float64(es)+0.3*float64(e-es))
}

// die is what an unplaced die is surely worth: its best Headquarters use.
func (j judge) die(d factories.Die) float64 {
	best := j.card // research takes any value
	switch {
	case d.Value == 0: // a Specialist die still to be chosen
		best = max(best, j.metal, 3*j.energy)
	case d.Value >= 4:
		best = max(best, j.metal)
	default:
		best = max(best, float64(d.Value)*j.energy)
	}
	return best
}

// hand scores the blueprints in hand, for a compound read into h: each
// is at least a card to pay with, and the few best worth building are
// also worth part of what building them gains; the rest wait for metal
// that is not coming soon. Past the hand limit cards are worth little:
// they will be discarded.
func (j judge) hand(hand []factories.Card, h *holding) float64 {
	if len(hand) == 0 {
		return 0
	}
	tools := toolsOf(hand)
	var space [16]float64 // a hand rarely holds more: no allocation
	vals := space[:0]
	for _, c := range hand {
		vals = append(vals, j.blueprint(h, &tools, c))
	}
	slices.SortFunc(vals, compareDesc)
	total := 0.0
	for i, x := range vals {
		switch {
		case i < j.w.plans:
			total += x
		case i < factories.HandLimit:
			total += j.card
		default:
			total += j.card / 4
		}
	}
	return total
}

// toolsOf counts a hand's cards of each tool (toolSlot).
func toolsOf(hand []factories.Card) [toolSlots]int {
	var tools [toolSlots]int
	for _, c := range hand {
		tools[factOf(c).tool]++
	}
	return tools
}

// blueprint is what card c is worth in a hand holding tools[t] cards of
// each tool t, c among them, for a compound read into h.
func (j judge) blueprint(h *holding, tools *[toolSlots]int, c factories.Card) float64 {
	b := factOf(c)
	if !b.many && h.owns(b.design) {
		return j.card
	}
	metal, energy := b.metal, b.energy
	if b.megalith {
		metal = max(metal-h.monuments, 0)
	}
	prestige := b.prestige
	if b.beacon {
		prestige = h.beacons + 2
	}
	gross := float64(prestige) + j.left*j.made(b)*0.8*j.w.output
	net := gross - j.metal*float64(metal) - j.energy*float64(energy) - 2*j.card
	if net <= 0 {
		return j.card
	}
	// A card with a partner of its tool can be built now; a lone one waits
	// for a second card of that tool.
	share := 0.3
	if tools[b.tool] > 1 {
		share = j.w.pair
	}
	return j.card + share*net
}

// holding is what the judge reads of a compound, in one pass: its
// prestige as the rules score it, its Monuments and Beacons, and the
// designs it holds.
type holding struct {
	prestige, monuments, beacons int
	designs                      [2]uint64
}

func holdingOf(compound []factories.Building) holding {
	var h holding
	for _, b := range compound {
		f := factOf(b.Card)
		if f.beacon {
			h.beacons++
			h.prestige += h.beacons + 1 // the nth Beacon is worth n+1
		} else {
			h.prestige += f.prestige
		}
		if f.monument {
			h.monuments++
		}
		if f.design >= 0 {
			h.designs[f.design/64] |= 1 << (f.design % 64)
		}
	}
	return h
}

// owns reports whether the compound holds a card of design d.
func (h *holding) owns(d int) bool {
	return d >= 0 && h.designs[d/64]&(1<<(d%64)) != 0
}

// future is the output still expected from a compound's buildings, the
// best first and each further one discounted: they share the same dice.
func (j judge) future(compound []factories.Building) float64 {
	if j.left == 0 {
		return 0
	}
	var space [16]float64
	vals := space[:0]
	for _, b := range compound {
		if r := j.made(factOf(b.Card)); r > 0 {
			vals = append(vals, r)
		}
	}
	slices.SortFunc(vals, compareDesc)
	total, share := 0.0, 1.0
	for _, x := range vals {
		total += x * share
		share *= 0.85
	}
	return total * j.left * j.w.output
}

func compareDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// made is what building b is expected to make per round for j (see
// weights.made).
func (j judge) made(b *fact) float64 {
	if b.design < 0 {
		return 0
	}
	return j.w.made[b.design]
}

// converter reports whether building name makes something without dice:
// what it makes comes on top of the dice's work.
func converter(name string) bool {
	switch name {
	case factories.Incinerator, factories.Refinery, factories.BatteryFactory, factories.RecyclingPlant:
		return true
	}
	return false
}

// fact is what the judge asks of a physical card, looked up once from the
// printed tables: a decision scores hundreds of thousands of positions, and
// looking cards up by name and copying their printed records showed in
// its profile.
type fact struct {
	design                  int // index of the printed design
	tool                    int // index of the tool (see toolSlot)
	metal, energy, prestige int
	many                    bool // Obelisk and Beacon may be built again
	beacon, megalith        bool
	monument                bool
}

// toolSlots is the number of tools and one slot for a card without one.
const toolSlots = 5

// toolSlot numbers a tool, so a hand's tools are counted in an array.
func toolSlot(t factories.Tool) int {
	switch t {
	case factories.Gear:
		return 0
	case factories.Wrench:
		return 1
	case factories.Hammer:
		return 2
	case factories.Shovel:
		return 3
	}
	return 4
}

// facts holds the fact of every physical card, by Card; read-only.
var facts = func() []fact {
	if len(factories.Blueprints()) > 128 {
		panic("bot: more designs than holding.designs holds")
	}
	var out []fact
	for d, b := range factories.Blueprints() {
		for range b.Copies {
			out = append(out, fact{design: d, tool: toolSlot(b.Tool), metal: b.Metal, energy: b.Energy,
				prestige: b.Prestige, monument: b.Type == factories.Monument,
				many:   b.Name == factories.Obelisk || b.Name == factories.Beacon,
				beacon: b.Name == factories.Beacon, megalith: b.Name == factories.Megalith})
		}
	}
	return out
}()

// noFact stands for a card outside the tables, which no state holds.
var noFact = fact{design: -1, tool: toolSlot("")}

func factOf(c factories.Card) *fact {
	if c < 0 || int(c) >= len(facts) {
		return &noFact
	}
	return &facts[c]
}

// perRound is roughly what a building adds in a round over using its dice
// on the Headquarters, in points, allowing for the odds of rolling what it
// needs.
func perRound(name string) float64 {
	switch name {
	case factories.Manufactory:
		return 1.0
	case factories.Harvester:
		return 0.9
	case factories.Warehouse:
		return 0.8
	case factories.AssemblyLine, factories.TrashCompactor:
		return 0.7
	case factories.NuclearPlant, factories.BlackMarket, factories.ConcretePlant, factories.Incinerator:
		return 0.6
	case factories.AluminumFactory, factories.Golem, factories.Motherlode:
		return 0.5
	case factories.Biolab, factories.FulfillmentCenter, factories.PowerPlant:
		return 0.45
	case factories.MegaFactory, factories.Robot, factories.Replicator:
		return 0.4
	case factories.Refinery:
		return 0.35
	case factories.Foundry, factories.Laboratory, factories.SolarArray:
		return 0.3
	case factories.BatteryFactory, factories.Dojo, factories.ScrapYard, factories.TempAgency:
		return 0.25
	case factories.FitnessCenter, factories.Gymnasium, factories.RecyclingPlant:
		return 0.2
	}
	return 0
}

func owned(p *factories.Player, name string) bool {
	for _, b := range p.Compound {
		if b.Card.Name() == name {
			return true
		}
	}
	return false
}
