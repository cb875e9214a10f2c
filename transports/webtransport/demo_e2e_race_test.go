//go:build race

package webtransport_test

// raceEnabled says the race detector is on: the big transfer shrinks to
// what the instrumented stack moves in reasonable time.
const raceEnabled = true
