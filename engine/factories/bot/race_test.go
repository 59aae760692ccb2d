//go:build race

package bot

// raceEnabled shortens the slow tests: the race detector makes the bots
// about ten times slower, and .ci/run plays the full runs without it.
const raceEnabled = true
