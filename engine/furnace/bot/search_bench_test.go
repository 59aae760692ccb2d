package bot

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine/furnace"
)

// BenchmarkSearchMove times search's decisions in the positions of a few
// games of search against greedy, 2- and 4-player, and reports the p50
// and p99 of a decision (run it with GOMAXPROCS=1 for one core).
func BenchmarkSearchMove(b *testing.B) {
	for _, players := range []int{2, 4} {
		views := searchViews(players, 4)
		b.Run(fmt.Sprintf("%dp", players), func(b *testing.B) {
			var took []time.Duration
			s := newSearch(9)
			for i := 0; b.Loop(); i++ {
				start := time.Now()
				s.Choose(views[i%len(views)])
				took = append(took, time.Since(start))
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(took[len(took)-1].Microseconds())/1000, "max-ms")
		})
	}
}

// searchViews collects the views search decides on in games seeded 0 to
// games-1, search in seat 0 and greedy in the others.
func searchViews(players, games int) []furnace.View {
	var views []furnace.View
	for seed := range uint64(games) {
		s, _ := furnace.New(furnace.Config{Players: players}, seed)
		bots := []Bot{newSearch(1)}
		for i := 1; i < players; i++ {
			bots = append(bots, newGreedy(uint64(i)))
		}
		for s.Phase != furnace.GameOver {
			seat := furnace.StatusOf(s).Acting[0]
			v := furnace.ViewOf(s, seat)
			if seat == 0 {
				views = append(views, v)
			}
			_ = s.Play(seat, bots[seat].Choose(v))
		}
	}
	return views
}
