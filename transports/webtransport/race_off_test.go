//go:build !race

package webtransport_test

// raceDetector reports that the race detector is built in.
const raceDetector = false
