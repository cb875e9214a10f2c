package ws

import (
	"testing"
	"time"
)

// Writes that keep ending are not stuck, however many are under way, so a
// server's keepalive ping is answered through a steady upload; writes none
// of which ended for stallGrace are, and so is the first of them once it
// has taken that long on its own.
func TestWritesStuckOnlyWhenNoneEnds(t *testing.T) {
	at := time.Unix(0, 0)
	w := &writeCount{now: func() time.Time { return at }}
	if w.stuck() {
		t.Fatal("stuck with no write under way")
	}
	w.begin()
	for range 100 { // a steady upload: one write always under way, each ending quickly
		at = at.Add(stallGrace / 2)
		w.end()
		w.begin()
		if w.stuck() {
			t.Fatalf("stuck at %v while writes keep ending", at)
		}
	}
	at = at.Add(stallGrace + time.Millisecond)
	if !w.stuck() {
		t.Fatal("not stuck after a write took longer than stallGrace with none ending")
	}
	w.begin() // another write queues behind the stuck one: still stuck
	if !w.stuck() {
		t.Fatal("a write queued behind a stuck one made the writes look moving")
	}
	w.end()
	if w.stuck() {
		t.Fatal("stuck right after a write ended")
	}
	w.end()
	at = at.Add(time.Hour)
	if w.stuck() {
		t.Fatal("stuck with no write under way")
	}
}
