package openskill

import (
	"math"
	"testing"
)

// The expected values below are the ones openskill.js publishes for the
// same cases (its README and its Plackett-Luce and rate tests), to the
// last digit its tests compare; a port that differs in any step of the
// update would miss them by far more than the tolerance.
const tolerance = 1e-9

func r(mu, sigma float64) Rating { return Rating{Mu: mu, Sigma: sigma} }

func TestRateReferenceValues(t *testing.T) {
	def := Default()
	n := def.New()
	withTau := Default()
	withTau.Tau = 25.0 / 300 // the tau the rate tests' version added by default
	cases := []struct {
		name  string
		model Model
		teams [][]Rating
		ranks []int
		want  [][]Rating
	}{
		{"README: two teams of two", def,
			[][]Rating{{n, r(32.444, 5.123)}, {r(43.381, 2.421), r(25.188, 6.211)}}, nil,
			[][]Rating{
				{r(28.669648436582808, 8.071520788025197), r(33.83086971107981, 5.062772998705765)},
				{r(43.071274808241974, 2.4166900452721256), r(23.149503312339064, 6.1378606973362135)},
			}},
		{"two players", def, [][]Rating{{n}, {n}}, nil,
			[][]Rating{{r(27.63523138347365, 8.065506316323548)}, {r(22.36476861652635, 8.065506316323548)}}},
		{"three players", def, [][]Rating{{n}, {n}, {n}}, nil,
			[][]Rating{
				{r(27.868876552746237, 8.204837030780652)},
				{r(25.717219138186557, 8.057829747583874)},
				{r(21.413904309067206, 8.057829747583874)},
			}},
		{"four players", def, [][]Rating{{n}, {n}, {n}, {n}}, nil,
			[][]Rating{
				{r(27.795084971874736, 8.263160757613477)},
				{r(26.552824984374855, 8.179213704945203)},
				{r(24.68943500312503, 8.083731307186588)},
				{r(20.96265504062538, 8.083731307186588)},
			}},
		{"five players", def, [][]Rating{{n}, {n}, {n}, {n}, {n}}, nil,
			[][]Rating{
				{r(27.666666666666668, 8.290556877154474)},
				{r(26.833333333333332, 8.240145629781066)},
				{r(25.72222222222222, 8.179996679645559)},
				{r(24.055555555555557, 8.111796013701358)},
				{r(20.72222222222222, 8.111796013701358)},
			}},
		{"teams of three, one and two", def, [][]Rating{{n, n, n}, {n}, {n, n}}, nil,
			[][]Rating{
				{r(25.939870821784513, 8.247641552260456), r(25.939870821784513, 8.247641552260456), r(25.939870821784513, 8.247641552260456)},
				{r(27.21366020491262, 8.274321317985242)},
				{r(21.84646897330287, 8.213058173195341), r(21.84646897330287, 8.213058173195341)},
			}},
		{"four rated players", withTau, [][]Rating{{r(29.182, 4.782)}, {r(27.174, 4.922)}, {r(16.672, 6.217)}, {n}}, nil,
			[][]Rating{
				{r(30.210227447000438, 4.765617924939384)},
				{r(27.644725221915632, 4.883479590134575)},
				{r(17.4036218889969, 6.101259408259549)},
				{r(19.21460876538932, 7.854669920480409)},
			}},
		{"places given out of order", withTau, [][]Rating{{n}, {n}, {n}, {n}}, []int{2, 1, 4, 3},
			[][]Rating{
				{r(26.55291815138952, 8.17961798837266)},
				{r(27.795252672501135, 8.263571791259416)},
				{r(20.962412806387245, 8.084127880168786)},
				{r(24.689416369722096, 8.084127880168786)},
			}},
		{"a tie for second", withTau, [][]Rating{{r(10, 8)}, {r(5, 10)}, {r(0, 12)}}, []int{1, 2, 2},
			[][]Rating{
				{r(11.942996666741225, 7.926888197620324)},
				{r(2.9381178546315034, 9.653804487570165)},
				{r(-1.4024317012198733, 11.323641575516767)},
			}},
		{"a four-way tie of newcomers", withTau, [][]Rating{{n}, {n}, {n}, {n}}, []int{1, 1, 1, 1},
			[][]Rating{
				{r(25, 8.263571791259416)}, {r(25, 8.263571791259416)},
				{r(25, 8.263571791259416)}, {r(25, 8.263571791259416)},
			}},
		{"ties in the middle, places out of order", withTau,
			[][]Rating{{r(15, 25.0/3)}, {r(20, 25.0/3)}, {r(25, 25.0/3)}, {r(30, 25.0/3)}}, []int{2, 4, 2, 1},
			[][]Rating{
				{r(15.340043358359136, 8.213141619804967)},
				{r(18.007678675484204, 8.189033933813437)},
				{r(24.25801928251219, 8.166918055585525)},
				{r(32.39425868364447, 8.247687230833794)},
			}},
		{"tau", Model{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 0.0001, Tau: 0.3},
			[][]Rating{{r(25, 3)}, {r(25, 3)}}, nil,
			[][]Rating{{r(25.624880438870754, 2.9879993738476953)}, {r(24.375119561129246, 2.9879993738476953)}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.model.Rate(c.teams, c.ranks)
			for i := range c.want {
				for j, want := range c.want[i] {
					g := got[i][j]
					if math.Abs(g.Mu-want.Mu) > tolerance || math.Abs(g.Sigma-want.Sigma) > tolerance {
						t.Errorf("team %d player %d: %v/%v, want %v/%v", i, j, g.Mu, g.Sigma, want.Mu, want.Sigma)
					}
				}
			}
		})
	}
}

func TestRateLeavesItsInputAlone(t *testing.T) {
	in := [][]Rating{{Default().New()}, {Default().New()}}
	Default().Rate(in, []int{1, 2})
	if in[0][0] != Default().New() || in[1][0] != Default().New() {
		t.Fatalf("Rate changed its input: %v", in)
	}
}

func TestOneTeamChangesNothing(t *testing.T) {
	got := Default().Rate([][]Rating{{r(30, 4)}}, nil)
	if got[0][0] != r(30, 4) {
		t.Fatalf("a game of one team gave %v", got[0][0])
	}
}

func TestOrdinal(t *testing.T) {
	// openskill.py's README: ordinal of mu 43.07, sigma 2.42 is 35.81.
	if got := r(43.07, 2.42).Ordinal(); math.Abs(got-35.81) > 1e-9 {
		t.Fatalf("ordinal %v, want 35.81", got)
	}
	if got := Default().New().Ordinal(); math.Abs(got) > 1e-12 {
		t.Fatalf("a newcomer's ordinal is %v, want 0", got)
	}
}
