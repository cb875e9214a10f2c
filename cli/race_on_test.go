//go:build race

package cli

// raceDetector reports that the race detector is built in: every message
// then costs several times its CPU.
const raceDetector = true
