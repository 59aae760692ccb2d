//go:build race

package furnace

// raceEnabled shortens the seeded property runs: the race detector makes
// them about ten times slower, and the engine has no goroutines to race.
const raceEnabled = true
