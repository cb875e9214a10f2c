// Package guard holds the two bounds of every wait in mcpscope's tests, in
// a package that imports nothing of mcpscope's, so that the tests of any
// package (the transports' and the client's own included) can use them.
//
// A bound is a hang guard, never a pace: a healthy run ends long before it,
// and a run that reaches it fails, saying what it waited for and the last
// state it saw.
package guard

import "time"

// Hang bounds one wait for one condition (an answer, a frame, a screen, a
// process's exit): long enough never to fire on a healthy run of a loaded
// two-core machine under the race detector, short enough that a hang fails
// the test in seconds.
const Hang = 30 * time.Second

// Run bounds a whole run a test drives through several waits of its own
// (a command of the binary, a program, a session's calls), and stands for
// "never" where a test keeps a product timeout out of the way: twice Hang.
const Run = 2 * Hang

// Flood is how many messages (or bytes) a test floods a session with,
// given the n that proves its point: n, or a fifth of it under the race
// detector. A flood there exercises the same paths concurrently, which is
// what that run is for, while the full one, at several times the CPU of
// each message, would end up measuring the machine against Hang.
func Flood(n int) int {
	if Race {
		return max(1, n/5)
	}
	return n
}
