//go:build !race

package peertest

// raceDetector reports that the race detector is built in.
const raceDetector = false
