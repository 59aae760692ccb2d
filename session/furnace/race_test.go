//go:build race

package furnace

// raceEnabled thins the drawing property runs: the race detector makes
// them several times slower, and drawing a board runs no goroutines.
const raceEnabled = true
