package ui

import (
	"encoding/json"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/flowtest"
	"github.com/mcpscope/mcpscope/internal/goldentest"
)

// cmdRunner runs commands as the Bubble Tea runtime would, for tests that
// drive the root model's Update without a terminal: every message a
// command yields goes to Update on the test's goroutine, and the commands
// Update returns run too.
type cmdRunner struct {
	t    *testing.T
	m    *Model
	msgs chan tea.Msg
	stop chan struct{}
}

// newRunner returns a runner for m; its commands end with the test.
func newRunner(t *testing.T, m *Model) *cmdRunner {
	r := &cmdRunner{t: t, m: m, msgs: make(chan tea.Msg, 64), stop: make(chan struct{})}
	t.Cleanup(func() { close(r.stop) })
	return r
}

// run starts cmd (each command of a batch in its own goroutine).
func (r *cmdRunner) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if batch, ok := msg.(tea.BatchMsg); ok {
			for _, c := range batch {
				r.run(c)
			}
			return
		}
		if msg == nil {
			return
		}
		select {
		case r.msgs <- msg:
		case <-r.stop:
		}
	}()
}

// press sends keys to the model and runs their commands.
func (r *cmdRunner) press(keys ...string) {
	for _, k := range keys {
		_, cmd := r.m.Update(keyPress(k))
		r.run(cmd)
	}
}

// send delivers msg to the model and runs its command.
func (r *cmdRunner) send(msg tea.Msg) {
	_, cmd := r.m.Update(msg)
	r.run(cmd)
}

// typeText presses each rune of s.
func (r *cmdRunner) typeText(s string) {
	for _, c := range s {
		r.press(string(c))
	}
}

// until delivers messages until ok holds; the timeout is a hang guard.
func (r *cmdRunner) until(what string, ok func() bool) {
	r.t.Helper()
	guard := time.NewTimer(flowtest.HangGuard)
	defer guard.Stop()
	for !ok() {
		select {
		case msg := <-r.msgs:
			_, cmd := r.m.Update(msg)
			r.run(cmd)
		case <-guard.C:
			r.t.Fatalf("never reached: %s; screen:\n%s", what, r.screenText())
		}
	}
}

// screen is the model's screen, ANSI stripped.
func (r *cmdRunner) screenText() string { return plainView(r.m) }

// plainView draws m without escapes and trailing spaces.
func plainView(m *Model) string { return goldentest.Plain(m.View().Content) }

// demoModel connects a model of a fresh store to the in-process demo over
// MCP-Flow, at 120×40.
func demoModel(t *testing.T) (*Model, *cmdRunner, *capture.Store) {
	t.Helper()
	d := flowtest.Start(t, flow.Config{})
	st := capture.NewStore(capture.Config{})
	m := New(Config{Store: st, Dial: flowDialer(d), Target: d.Target()})
	t.Cleanup(func() { _ = m.Close() })
	r := newRunner(t, m)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	r.run(m.dial())
	r.until("connected", func() bool { return m.conn.ready })
	return m, r, st
}

// openExplorerLoaded presses e and waits until every list of the explorer
// has its answer.
func openExplorerLoaded(t *testing.T, r *cmdRunner) *explorer {
	t.Helper()
	r.press("e")
	x, ok := r.m.overlay.(*explorer)
	if !ok {
		t.Fatalf("e opened %T, want the explorer", r.m.overlay)
	}
	r.until("every list answered", func() bool {
		for i := range x.lists {
			if x.lists[i].state == listLoading {
				return false
			}
		}
		return true
	})
	return x
}

// sentRequests returns the params of the requests with method the client sent.
func sentRequests(st *capture.Store, method string) []json.RawMessage {
	var out []json.RawMessage
	for _, f := range st.Window(1, st.Len()) {
		if f.Dir == capture.Out && f.Msg != nil && f.Msg.Method == method {
			out = append(out, f.Msg.Params)
		}
	}
	return out
}

// names returns the names of a list's shown entries, in order.
func names(l *entryList) []string {
	out := make([]string, len(l.shown))
	for i, k := range l.shown {
		out[i] = l.items[k].name
	}
	return out
}
