//go:build race

package factories

// raceEnabled shortens the seeded property runs: the race detector makes
// them about ten times slower and finds nothing to race in an engine
// without goroutines. .ci/run plays the full runs without it.
const raceEnabled = true
