package live

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/statedir"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proxy"
)

func TestMain(m *testing.M) { os.Exit(statedir.Run(m.Run)) }

// openSession opens an unrecorded proxied session called name whose store
// has cfg's bounds, started at started (now when zero).
func openSession(t *testing.T, name string, cfg capture.Config, started time.Time) *proxy.Session {
	t.Helper()
	var clock func() time.Time
	if !started.IsZero() {
		clock = func() time.Time { return started }
	}
	s, err := proxy.Open(proxy.Options{Name: name, Target: "fake-server --flag", Transport: "stdio", NoRecord: true,
		Capture: cfg, Clock: clock, Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(nil) })
	return s
}

// serve publishes s and closes the hub when the test ends.
func serve(t *testing.T, s *proxy.Session) *Hub {
	t.Helper()
	h, err := Serve(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

// dial attaches a viewer to h and closes it when the test ends.
func dial(t *testing.T, h *Hub) *Viewer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	v, err := Dial(ctx, h.Socket())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	return v
}

// carrier is a fake relay's Carrier: it remembers what it carried.
type carrier struct {
	mu     sync.Mutex
	passed [][]byte
	sent   [][]byte
}

func (c *carrier) Pass(_ context.Context, h proxy.Hop) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.passed = append(c.passed, h.Raw)
	return nil
}

func (c *carrier) Send(_ context.Context, _ capture.Dir, body []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent = append(c.sent, body)
	return nil
}

func (c *carrier) Cut(string) {}

func (c *carrier) counts() (passed, sent int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.passed), len(c.sent)
}

// relay hands body, going dir, to s as a fake relay would.
func relay(t *testing.T, s *proxy.Session, c proxy.Carrier, dir capture.Dir, body string) {
	t.Helper()
	b := []byte(body)
	h := proxy.Hop{Dir: dir, Chan: capture.Channel{Kind: capture.Control}, Raw: b, Body: b, Enc: proto.EncJSON}
	if err := s.Relay(context.Background(), h, c); err != nil {
		t.Errorf("relay: %v", err)
	}
}

// eventually waits, within guard.Hang, until ok holds; wake (when not nil)
// says when to look again, else it looks every millisecond.
func eventually(t *testing.T, what string, wake <-chan struct{}, ok func() bool) {
	t.Helper()
	deadline := time.NewTimer(guard.Hang)
	defer deadline.Stop()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for !ok() {
		select {
		case <-wake:
		case <-tick.C:
		case <-deadline.C:
			t.Fatalf("still waiting after %s for %s", guard.Hang, what)
		}
	}
}

// messages returns the control frames of st, in order, as text.
func messages(st *capture.Store) []string {
	var out []string
	for _, f := range st.Window(0, st.Len()) {
		if f.Chan.Kind == capture.Control {
			out = append(out, string(f.Raw))
		}
	}
	return out
}
