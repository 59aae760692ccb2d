// Package openskill rates players from the outcomes of multiplayer games
// with the Plackett-Luce model of Weng and Lin's Bayesian approximation
// (Ruby C. Weng and Chih-Jen Lin, "A Bayesian Approximation Method for
// Online Ranking", Journal of Machine Learning Research 12 (2011),
// 267-300, Algorithm 4), as the OpenSkill libraries (openskill.js,
// openskill.py) implement it, and checked against their published values.
//
// A rating is a normal belief about a player's skill: Mu its mean, Sigma
// its spread. Each game moves the ratings of its players by how surprising
// the order they finished in was, and narrows them. It knows no game: a
// game is teams of ratings and the place each team finished.
//
// No maintained Go package of it is served by the module proxy this
// project may use, so it is implemented here, small and pure.
package openskill

import (
	"math"
	"slices"
)

// Rating is a belief about one player's skill.
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// Ordinal is the skill the player has with about 99.7% confidence,
// Mu - 3·Sigma: what leaderboards sort by, so that a newcomer's lucky
// first win does not top a long record.
func (r Rating) Ordinal() float64 { return r.Mu - 3*r.Sigma }

// Model holds the constants of the rating system.
type Model struct {
	// Mu and Sigma are a new player's rating.
	Mu, Sigma float64
	// Beta is the spread of a performance around its player's skill.
	Beta float64
	// Kappa keeps a variance from shrinking to nothing or below.
	Kappa float64
	// Tau is added (in quadrature) to every Sigma before a game, so that
	// ratings can follow a player whose skill changes; 0 adds nothing.
	Tau float64
}

// Default is the model openskill.js starts with: mu 25, sigma 25/3, beta
// 25/6, kappa 0.0001, no tau.
func Default() Model {
	return Model{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 0.0001}
}

// New is a new player's rating.
func (m Model) New() Rating { return Rating{Mu: m.Mu, Sigma: m.Sigma} }

// team is one team's combined rating, as the paper sums its players'.
type team struct {
	mu, sigmaSq float64
	rank        int
	at          int // index in the caller's order
}

// Rate returns the new ratings of teams after a game in which team i
// finished in place ranks[i]: lower is better, and equal places are a tie.
// Nil ranks mean the teams finished in the order given. The result has the
// shape of teams; teams itself is not changed. A game of one team changes
// nothing.
func (m Model) Rate(teams [][]Rating, ranks []int) [][]Rating {
	out := make([][]Rating, len(teams))
	for i, t := range teams {
		out[i] = slices.Clone(t)
		if m.Tau > 0 {
			for j := range out[i] {
				out[i][j].Sigma = math.Sqrt(out[i][j].Sigma*out[i][j].Sigma + m.Tau*m.Tau)
			}
		}
	}
	if len(teams) < 2 {
		return out
	}
	ts := make([]team, len(out))
	for i, t := range out {
		ts[i].at, ts[i].rank = i, i
		if ranks != nil {
			ts[i].rank = ranks[i]
		}
		for _, r := range t {
			ts[i].mu += r.Mu
			ts[i].sigmaSq += r.Sigma * r.Sigma
		}
	}
	// Best first; the sums below run over the teams that finished at or
	// above a place, which are then a prefix.
	slices.SortStableFunc(ts, func(a, b team) int { return a.rank - b.rank })

	betaSq := m.Beta * m.Beta
	var cSq float64
	for _, t := range ts {
		cSq += t.sigmaSq + betaSq
	}
	c := math.Sqrt(cSq)
	// sumQ[q]: the strength of every team that did not finish above q;
	// a[q]: how many teams share q's place.
	sumQ := make([]float64, len(ts))
	a := make([]float64, len(ts))
	for q, tq := range ts {
		for _, ti := range ts {
			if ti.rank >= tq.rank {
				sumQ[q] += math.Exp(ti.mu / c)
			}
			if ti.rank == tq.rank {
				a[q]++
			}
		}
	}
	for i, ti := range ts {
		strength := math.Exp(ti.mu / c)
		var omega, delta float64
		for q, tq := range ts {
			if tq.rank > ti.rank {
				continue
			}
			p := strength / sumQ[q]
			if q == i {
				omega += (1 - p) / a[q]
			} else {
				omega -= p / a[q]
			}
			delta += p * (1 - p) / a[q]
		}
		gamma := math.Sqrt(ti.sigmaSq) / c
		omega *= ti.sigmaSq / c
		delta *= gamma * ti.sigmaSq / cSq
		for j, r := range out[ti.at] {
			share := r.Sigma * r.Sigma / ti.sigmaSq
			out[ti.at][j] = Rating{
				Mu:    r.Mu + share*omega,
				Sigma: r.Sigma * math.Sqrt(math.Max(1-share*delta, m.Kappa)),
			}
		}
	}
	return out
}
