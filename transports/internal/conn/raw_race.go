//go:build unix && race

package conn

// rawCalls is false under the race detector, which learns of the order
// that I/O makes between goroutines only from the ordinary calls.
const rawCalls = false
