//go:build !race

package furnace

const raceEnabled = false
