//go:build !race

package webtransport_test

// raceEnabled says the race detector is on.
const raceEnabled = false
