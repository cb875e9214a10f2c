//go:build !linux

package peertest

import "testing"

// startHTTP skips the test: the HTTP peers are found listening through
// /proc, which only Linux has.
func startHTTP(t testing.TB, p httpPeer) *HTTPPeer {
	t.Helper()
	t.Skipf("%s: finding the port a peer chose, and checking it listens on loopback only, reads /proc, which only Linux has", p.what)
	return nil
}
