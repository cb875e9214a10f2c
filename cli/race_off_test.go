//go:build !race

package cli

// raceDetector reports that the race detector is built in.
const raceDetector = false
