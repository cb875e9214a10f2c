package proxy

import (
	"os"
	"testing"
	"time"
)

// TestReservePathSameMillisecond: two sessions of one name that start in
// the same millisecond get a recording each.
func TestReservePathSameMillisecond(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	a, err := reservePath(dir, "proxy-twin", at)
	if err != nil {
		t.Fatal(err)
	}
	b, err := reservePath(dir, "proxy-twin", at)
	if err != nil {
		t.Fatal(err)
	}
	if a == b {
		t.Fatalf("both sessions got %s", a)
	}
	for _, p := range []string{a, b} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", p, fi, err)
		}
	}
}
