package mcphttp

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// sleeper stands for the wait between two GET streams: it records the
// waits asked for and lets the first pass of them pass at once; the next
// one holds until the transport ends, so the streams counted are bounded.
type sleeper struct {
	pass int
	held chan struct{} // closed when a wait is held

	mu    sync.Mutex
	waits []time.Duration
}

func newSleeper(pass int) *sleeper { return &sleeper{pass: pass, held: make(chan struct{})} }

func (s *sleeper) sleep(ctx context.Context, d time.Duration) bool {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	n := len(s.waits)
	s.mu.Unlock()
	if n <= s.pass {
		return true
	}
	if n == s.pass+1 {
		close(s.held)
	}
	<-ctx.Done()
	return false
}

// asked waits until the wait after the last stream is held and returns
// the waits asked for.
func (s *sleeper) asked(t *testing.T) []time.Duration {
	t.Helper()
	select {
	case <-s.held:
	case <-time.After(hangGuard):
		t.Fatalf("the GET stream was not opened %d times", s.pass+1)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.waits)
}

// streams answers the n-th GET of f (from 1) with an SSE stream of the
// events raw(n), ended at once.
func streams(f *fake, raw func(n int) string) {
	var (
		mu sync.Mutex
		n  int
	)
	f.on(http.MethodGet, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		mu.Lock()
		n++
		k := n
		mu.Unlock()
		openSSE(w)(raw(k))
	})
}

// A server that answers each standalone GET with "retry: 1" and one event
// id, then ends the stream cleanly, is not met with a GET a millisecond:
// the waits never go under the floor and grow, while no message comes, up
// to the cap.
func TestQuietGETStreamBacksOff(t *testing.T) {
	const pass = 6
	f := newFake(t)
	streams(f, func(n int) string { return fmt.Sprintf("retry: 1\nid: g%d\ndata:\n\n", n) })
	r := newRig(t, f.URL(), nil) // RetryCap 1s
	s := newSleeper(pass)
	r.tr.sleep = s.sleep
	r.handshake(t)
	waits := s.asked(t)
	gets := f.requests(method(http.MethodGet))
	if len(gets) != pass+1 {
		t.Errorf("%d GETs for %d reconnections, want %d", len(gets), pass, pass+1)
	}
	for i, g := range gets[1:] {
		if want := "g" + strconv.Itoa(i+1); g.Header.Get(headerLastID) != want {
			t.Errorf("GET %d: Last-Event-ID %q, want %q", i+2, g.Header.Get(headerLastID), want)
		}
	}
	want := []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second, time.Second, time.Second, time.Second, time.Second}
	if !slices.Equal(waits, want) {
		t.Errorf("waits %v, want %v", waits, want)
	}
	for _, w := range waits {
		if w < relistenFloor {
			t.Errorf("a wait of %s, under the floor of %s", w, relistenFloor)
		}
	}
}

// A GET stream that brings a message each time is opened again after the
// server's retry, never under the floor; a quiet one backs off, but never
// under the server's retry.
func TestGETStreamHonoursRetryAboveTheFloor(t *testing.T) {
	cases := []struct {
		name    string
		retry   int
		message bool
		want    []time.Duration
	}{
		{"retry 1 with messages", 1, true, []time.Duration{relistenFloor, relistenFloor, relistenFloor}},
		{"retry 700 with messages", 700, true, []time.Duration{700 * time.Millisecond, 700 * time.Millisecond, 700 * time.Millisecond}},
		{"retry 700 quiet", 700, false, []time.Duration{700 * time.Millisecond, 700 * time.Millisecond, time.Second}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			streams(f, func(n int) string {
				data := ""
				if c.message {
					data = fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":%d}}`, n)
				}
				return fmt.Sprintf("retry: %d\nid: g%d\ndata: %s\n\n", c.retry, n, data)
			})
			r := newRig(t, f.URL(), nil)
			s := newSleeper(len(c.want) - 1)
			r.tr.sleep = s.sleep
			r.handshake(t)
			if waits := s.asked(t); !slices.Equal(waits, c.want) {
				t.Errorf("waits %v, want %v", waits, c.want)
			}
			if gets := f.requests(method(http.MethodGet)); len(gets) != len(c.want) {
				t.Errorf("%d GETs, want %d", len(gets), len(c.want))
			}
		})
	}
}
