//go:build !linux

package peertest

import "testing"

// startHTTP skips the test: the HTTP peers are found listening through
// /proc, which only Linux has.
func startHTTP(t testing.TB, p httpPeer) *HTTPPeer {
	t.Helper()
	t.Skipf("%s: the HTTP peers are started on Linux only", p.what)
	return nil
}
