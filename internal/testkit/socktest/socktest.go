// Package socktest gives tests a place for a Unix socket.
package socktest

import (
	"os"
	"testing"
)

// ShortDir is a fresh folder with a path short enough for a Unix socket
// (108 bytes at most; t.TempDir's can be longer), removed at the end of
// the test.
func ShortDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "ms")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}
