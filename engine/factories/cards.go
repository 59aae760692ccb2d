package factories

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
)

// Tool is the symbol on a blueprint's corner; building and hiring both pay
// with a discarded blueprint of the matching tool.
type Tool string

// The four tools. The contractor row has one fixed tool token per slot.
const (
	Gear   Tool = "gear"
	Wrench Tool = "wrench"
	Hammer Tool = "hammer"
	Shovel Tool = "shovel"
)

// Tools lists the tool tokens in the order they sit over the contractor
// slots; the rulebook says the order is free but fixed for the game. A
// function, not a variable, so no importer can change the rules.
func Tools() [marketSize]Tool { return [...]Tool{Gear, Wrench, Hammer, Shovel} }

// Type is a blueprint's banner colour; The Machine produces by type.
type Type string

// The blueprint types.
const (
	Production Type = "production"
	Utility    Type = "utility"
	Training   Type = "training"
	Special    Type = "special"
	Monument   Type = "monument"
)

// Blueprint is one printed card design; the deck holds Copies of it.
type Blueprint struct {
	Name     string `json:"name"`
	Type     Type   `json:"type"`
	Tool     Tool   `json:"tool"`
	Copies   int    `json:"copies"`
	Metal    int    `json:"metal"`
	Energy   int    `json:"energy"`
	Prestige int    `json:"prestige"`
	Text     string `json:"text"`
}

// ContractorCard is one printed contractor design.
type ContractorCard struct {
	Name   string `json:"name"`
	Copies int    `json:"copies"`
	Energy int    `json:"energy"` // additional cost on top of the discarded blueprint
	Text   string `json:"text"`
}

// Card identifies one physical blueprint (0..73); Contractor one physical
// contractor (0..16). None marks an empty marketplace slot.
type (
	Card       int
	Contractor int
)

// None is an empty slot or no card.
const None = -1

// Blueprint names the rules refer to.
const (
	AluminumFactory   = "Aluminum Factory"
	AssemblyLine      = "Assembly Line"
	BatteryFactory    = "Battery Factory"
	Beacon            = "Beacon"
	Biolab            = "Biolab"
	BlackMarket       = "Black Market"
	ConcretePlant     = "Concrete Plant"
	Dojo              = "Dojo"
	FitnessCenter     = "Fitness Center"
	Foundry           = "Foundry"
	FulfillmentCenter = "Fulfillment Center"
	Golem             = "Golem"
	Gymnasium         = "Gymnasium"
	Harvester         = "Harvester"
	Incinerator       = "Incinerator"
	Laboratory        = "Laboratory"
	Manufactory       = "Manufactory"
	MegaFactory       = "Mega Factory"
	Megalith          = "Megalith"
	Motherlode        = "Motherlode"
	NuclearPlant      = "Nuclear Plant"
	Obelisk           = "Obelisk"
	PowerPlant        = "Power Plant"
	RecyclingPlant    = "Recycling Plant"
	Refinery          = "Refinery"
	Replicator        = "Replicator"
	Robot             = "Robot"
	ScrapYard         = "Scrap Yard"
	SolarArray        = "Solar Array"
	TempAgency        = "Temp Agency"
	TrashCompactor    = "Trash Compactor"
	Warehouse         = "Warehouse"
)

// Contractor names.
const (
	Architect   = "Architect"
	Electrician = "Electrician"
	Engineer    = "Engineer"
	Foreman     = "Foreman"
	HiredHands  = "Hired Hands"
	Investor    = "Investor"
	Miner       = "Miner"
	Specialist  = "Specialist"
)

//go:embed cards.json
var cardsJSON []byte

// The card tables are read-only data decoded once from cards.json, the one
// file to replace for a new printing; the rules never write to them.
var (
	blueprints  []Blueprint
	contractors []ContractorCard
	cardKind    []int   // physical Card -> index into blueprints
	hireKind    []int   // physical Contractor -> index into contractors
	cardFacts   []facts // physical Card -> what the rules ask of it
	// unknownFacts stands for every card outside the table (see design).
	unknownFacts facts
)

func init() {
	var data struct {
		Blueprints  []Blueprint      `json:"blueprints"`
		Contractors []ContractorCard `json:"contractors"`
	}
	if err := json.Unmarshal(cardsJSON, &data); err != nil {
		panic(fmt.Sprintf("factories: cards.json: %v", err))
	}
	blueprints, contractors = data.Blueprints, data.Contractors
	for k, b := range blueprints {
		for range b.Copies {
			cardKind = append(cardKind, k)
		}
	}
	for k, c := range contractors {
		for range c.Copies {
			hireKind = append(hireKind, k)
		}
	}
	tools := map[Tool]int{}
	for c := range cardKind {
		cardFacts = append(cardFacts, factsOf(&blueprints[cardKind[c]], cardKind[c], tools))
	}
	unknownFacts = factsOf(&unknownBlueprint, len(cardKind), tools)
}

// facts is what the rules' inner loops ask of a card, worked out once from
// the card table: Legal asks them of every candidate, and numbers compare
// where names would be compared letter by letter.
type facts struct {
	design      int    // see design
	tool        int    // c's tool, numbered: equal tools, equal numbers
	recipe      recipe // noRecipe when the design has none to activate
	metal       int    // the printed cost
	energy      int
	activatable bool // see activatable
	multiple    bool // see multipleAllowed
	megalith    bool // Megalith's cost falls with the monuments owned
	monument    bool
	// machineType is the place of c's type in machineTypes, -1 for a
	// type The Machine's dice do not count.
	machineType int
}

// machineTypes are the types whose cards The Machine's red, blue, purple
// and yellow dice count, in that order.
var machineTypes = [...]Type{Training, Production, Special, Utility}

// factsOf works out the facts of the design b, numbered k, numbering its
// tool in tools.
func factsOf(b *Blueprint, k int, tools map[Tool]int) facts {
	tool, ok := tools[b.Tool]
	if !ok {
		tool = len(tools)
		tools[b.Tool] = tool
	}
	return facts{
		design:      k,
		tool:        tool,
		recipe:      recipeOf(b.Name),
		metal:       b.Metal,
		energy:      b.Energy,
		activatable: activatable(b),
		multiple:    multipleAllowed(b.Name),
		megalith:    b.Name == Megalith,
		monument:    b.Type == Monument,
		machineType: slices.Index(machineTypes[:], b.Type),
	}
}

// facts returns c's facts, read-only.
func (c Card) facts() *facts {
	if c < 0 || int(c) >= len(cardFacts) {
		return &unknownFacts
	}
	return &cardFacts[c]
}

// Blueprints returns every printed blueprint design.
func Blueprints() []Blueprint { return append([]Blueprint(nil), blueprints...) }

// Contractors returns every printed contractor design.
func Contractors() []ContractorCard { return append([]ContractorCard(nil), contractors...) }

// NumCards and NumContractors are the physical deck sizes (74 and 17).
func NumCards() int       { return len(cardKind) }
func NumContractors() int { return len(hireKind) }

// Info returns the printed blueprint for a physical card.
func (c Card) Info() Blueprint {
	if c < 0 || int(c) >= len(cardKind) {
		return Blueprint{Name: unknownCard}
	}
	return blueprints[cardKind[c]]
}

// unknownCard names a Card that is not in the deck.
const unknownCard = "unknown card"

// Read-only stand-ins for cards outside the tables, for info.
var (
	unknownBlueprint  = Blueprint{Name: unknownCard}
	unknownContractor = ContractorCard{Name: "unknown contractor"}
)

// info is Info without the copy, for the rules' inner loops: the printed
// card in the read-only table, which callers must not change.
func (c Card) info() *Blueprint {
	if c < 0 || int(c) >= len(cardKind) {
		return &unknownBlueprint
	}
	return &blueprints[cardKind[c]]
}

// info is Contractor.Info without the copy (see Card.info).
func (c Contractor) info() *ContractorCard {
	if c < 0 || int(c) >= len(hireKind) {
		return &unknownContractor
	}
	return &contractors[hireKind[c]]
}

// Name is the printed name of c.
func (c Card) Name() string {
	if c < 0 || int(c) >= len(cardKind) {
		return unknownCard
	}
	// Not c.Info().Name: bots ask for names in their inner loops, and
	// copying the whole Blueprint for one field showed in their profiles.
	return blueprints[cardKind[c]].Name
}

// Info returns the printed contractor for a physical contractor card.
func (c Contractor) Info() ContractorCard {
	if c < 0 || int(c) >= len(hireKind) {
		return ContractorCard{Name: "unknown contractor"}
	}
	return contractors[hireKind[c]]
}

// Name is the printed name of c.
func (c Contractor) Name() string { return c.info().Name }

// CardsNamed returns every physical card with the given printed name, so
// tests and tools can find the copies of a design.
func CardsNamed(name string) []Card {
	var out []Card
	for c := range cardKind {
		if blueprints[cardKind[c]].Name == name {
			out = append(out, Card(c))
		}
	}
	return out
}

// ContractorsNamed returns every physical contractor with the given name.
func ContractorsNamed(name string) []Contractor {
	var out []Contractor
	for c := range hireKind {
		if contractors[hireKind[c]].Name == name {
			out = append(out, Contractor(c))
		}
	}
	return out
}

// multipleAllowed reports whether a player may build several copies.
func multipleAllowed(name string) bool { return name == Obelisk || name == Beacon }

// activatable reports whether a building has a recipe to activate.
func activatable(b *Blueprint) bool {
	switch b.Name {
	case Laboratory, ScrapYard, SolarArray:
		return false
	}
	return b.Type != Monument
}
