package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client/load"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// A reconnect closes the session a bench loads: the run ends with it
// rather than counting the closed session's refusals as fast as it can
// until its duration ends, and the bench says the session ended.
func TestBenchEndsWhenAReconnectClosesItsSession(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	m := newTestModel(t, st, 120, 40)
	m.cfg.Dial = func(capture.Sink) (Link, error) { return Link{}, context.Canceled }
	m.conn = connection{link: Link{Session: screentest.ConnectDemo(t, st)}, gen: 1, dialect: mcp.DialectMCP, ready: true}
	started := make(chan context.Context, 1)
	reconnected := make(chan struct{})
	m.benchRun = func(ctx context.Context, _ load.Config, call load.Call, _ func(load.Snapshot), _ time.Duration) (load.Snapshot, error) {
		s := load.Snapshot{Errors: map[string]int{}}
		started <- ctx
		<-reconnected
		for ctx.Err() == nil { // the engine calls until its context ends
			s.Started++
			s.Completed++
			if err := call(ctx); err != nil {
				s.Errors[err.Error()]++
			}
		}
		return s, ctx.Err()
	}
	r := newRunner(t, m)
	r.Press("t")
	r.Until("tools/list answered", func() bool { return len(screentest.SentRequests(st, mcp.MethodToolsList)) == 1 && st.Len() >= 2 })
	m.traffic.selectSeq(sentFrame(t, st, mcp.MethodToolsList))
	press(m, "b")
	r.Press("enter")
	var ctx context.Context
	select {
	case ctx = <-started:
	case <-time.After(guard.Hang):
		t.Fatal("the run did not start")
	}
	r.Press("ctrl+o", "r") // to the panes; reconnect
	close(reconnected)
	select {
	case <-ctx.Done():
	case <-time.After(guard.Hang):
		t.Fatal("the run goes on loading the session the reconnect closed")
	}
	r.Press("ctrl+o") // back to the bench
	r.Until("the bench says the session ended", func() bool {
		return strings.Contains(plainView(m), "the session ended after")
	})
	r.Press("esc")
	if m.overlay != nil {
		t.Errorf("esc left the bench open: %T", m.overlay)
	}
}
