//go:build race

package peertest

// raceDetector reports that the race detector is built in: every test
// then costs several times its CPU, and peer tests run one per core.
const raceDetector = true
