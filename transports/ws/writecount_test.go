package ws

import (
	"testing"
	"time"
)

// Writes that each end quickly are not stuck, however many follow one
// another, so a server's keepalive ping is answered through a steady
// upload; a write under way for over stallGrace is, and so are the writes
// while it stays under way.
func TestWritesStuckOnlyWhenNoneEnds(t *testing.T) {
	at := time.Unix(0, 0)
	w := &writeCount{now: func() time.Time { return at }}
	if w.stuck() {
		t.Fatal("stuck with no write under way")
	}
	id := w.begin()
	for range 100 { // a steady upload: one write always under way, each ending quickly
		at = at.Add(stallGrace / 2)
		w.end(id)
		id = w.begin()
		if w.stuck() {
			t.Fatalf("stuck at %v while writes keep ending", at)
		}
	}
	at = at.Add(stallGrace + time.Millisecond)
	if !w.stuck() {
		t.Fatal("not stuck after a write took longer than stallGrace with none ending")
	}
	queued := w.begin() // another write queues behind the stuck one: still stuck
	if !w.stuck() {
		t.Fatal("a write queued behind a stuck one made the writes look moving")
	}
	w.end(id)
	if w.stuck() {
		t.Fatal("stuck right after a write ended")
	}
	w.end(queued)
	at = at.Add(time.Hour)
	if w.stuck() {
		t.Fatal("stuck with no write under way")
	}
}
