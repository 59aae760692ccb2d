//go:build !race

package factories

const raceEnabled = false
