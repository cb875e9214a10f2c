//go:build race

package webtransport_test

// raceDetector reports that the race detector is built in: every byte
// moved then costs several times its CPU.
const raceDetector = true
