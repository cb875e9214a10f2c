package capture

import (
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// pending drains ch and says how many signals were waiting.
func pending(ch <-chan struct{}) int {
	n := 0
	for {
		select {
		case <-ch:
			n++
		default:
			return n
		}
	}
}

func TestSubscribeCoalesces(t *testing.T) {
	s := NewStore(Config{})
	ch, cancel := s.Subscribe()
	other, cancelOther := s.Subscribe()
	defer cancelOther()
	if pending(ch) != 0 {
		t.Fatal("a signal before any change")
	}
	for i := range 10_000 {
		s.Append(control(i, 10)) // nobody reads: must not block
	}
	if n := pending(ch); n != 1 {
		t.Fatalf("%d signals pending after 10000 appends, want 1", n)
	}
	if pending(ch) != 0 {
		t.Fatal("a signal after draining without a change")
	}
	s.MarkStream(StreamKey{Conn: "x"}, StreamDone, nil)
	if pending(ch) != 1 {
		t.Fatal("a stream mark did not signal")
	}
	cancel()
	cancel()
	s.Append(control(0, 1))
	if pending(ch) != 0 {
		t.Fatal("a cancelled subscriber was signalled")
	}
	if pending(other) != 1 {
		t.Fatal("cancelling one subscriber silenced the other")
	}
}

func TestSubscriberSeesEveryFrameThroughStats(t *testing.T) {
	const writers, each = 4, 5000
	s := NewStore(Config{})
	ch, cancel := s.Subscribe()
	defer cancel()

	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				s.Append(control(w*each+i, 16))
			}
		})
	}
	signals, seen := 0, uint64(0)
	hang := time.After(guard.Hang)
	for seen < writers*each {
		select {
		case <-ch:
			signals++
			st := s.Stats()
			for _, f := range s.Window(seen+1, int(st.LastSeq-seen)) {
				if f.Seq != seen+1 {
					t.Fatalf("read Seq %d after %d", f.Seq, seen)
				}
				seen = f.Seq
			}
		case <-hang:
			t.Fatalf("waited %s for every frame to be signalled: saw %d of %d frames", guard.Hang, seen, writers*each)
		}
	}
	wg.Wait()
	if signals < 1 || signals > writers*each {
		t.Fatalf("%d signals for %d frames", signals, writers*each)
	}
	t.Logf("%d signals for %d frames", signals, writers*each)
}
