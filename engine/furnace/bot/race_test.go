//go:build race

package bot

// raceEnabled shortens the slow tests: the race detector makes the bots
// about ten times slower.
const raceEnabled = true
