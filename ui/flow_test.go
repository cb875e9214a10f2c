package ui

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	protoflow "github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// screenProbe wraps the model and keeps the last screen it drew, ANSI
// stripped, for the test goroutine to read while the program runs.
type screenProbe struct {
	*Model
	mu   sync.Mutex
	last string
	escs []bool // for each esc the model took, whether a question had it
}

// run starts the program on the probe, sized w×h. When the test ends the
// program is quit and waited for before the model closes its link, so
// that closing never races a render.
func (p *screenProbe) run(t *testing.T, w, h int) *teatest.TestModel {
	t.Helper()
	return runProgram(t, p, p.Model, w, h)
}

// runProgram starts the program on m, which draws model, sized w×h; when
// the test ends it quits the program and waits for it, then closes model.
func runProgram(t *testing.T, m tea.Model, model *Model, w, h int) *teatest.TestModel {
	t.Helper()
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h))
	t.Cleanup(func() {
		_ = tm.Quit()
		tm.WaitFinished(t, teatest.WithFinalTimeout(guard.Hang))
		_ = model.Close()
	})
	return tm
}

// View draws the model and keeps a copy.
func (p *screenProbe) View() tea.View {
	v := p.Model.View()
	if p.hold {
		return v // the screen last drawn, kept already
	}
	p.mu.Lock()
	p.last = ansi.Strip(v.Content)
	p.mu.Unlock()
	return v
}

// Update forwards to the model and keeps the probe as the program's model.
func (p *screenProbe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "esc" {
		p.mu.Lock()
		p.escs = append(p.escs, p.overlay != nil)
		p.mu.Unlock()
	}
	_, cmd := p.Model.Update(msg)
	return p, cmd
}

// screen returns the last screen drawn.
func (p *screenProbe) screenText() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last
}

// escOnQuestion presses esc and waits for the model to take it; it reports
// whether a question (an overlay) had the key, or the screen below it.
func (p *screenProbe) escOnQuestion(t *testing.T, tm *teatest.TestModel) bool {
	t.Helper()
	p.mu.Lock()
	n := len(p.escs)
	p.mu.Unlock()
	tm.Send(keyPress("esc"))
	var onQuestion bool
	p.waitScreen(t, "the model to take esc", func(string) bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		if len(p.escs) > n {
			onQuestion = p.escs[n]
			return true
		}
		return false
	})
	return onQuestion
}

// waitScreen waits until the screen satisfies ok; the timeout is a hang guard.
func (p *screenProbe) waitScreen(t *testing.T, what string, ok func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(guard.Hang)
	for time.Now().Before(deadline) {
		if s := p.screenText(); ok(s) {
			return s
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the screen never showed %s within %s; last screen:\n%s", what, guard.Hang, p.screenText())
	return ""
}

// waitText waits until the screen holds every text.
func (p *screenProbe) waitText(t *testing.T, texts ...string) string {
	t.Helper()
	return p.waitScreen(t, fmt.Sprintf("%q", texts), func(s string) bool {
		for _, x := range texts {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	})
}

// flowDialer connects to a demo server over MCP-Flow, pinning its certificate.
func flowDialer(d *flowtest.Demo) Dialer {
	return func(sink capture.Sink) (Link, error) {
		tr, err := d.Transport(sink)
		if err != nil {
			return Link{}, err
		}
		return Link{Transport: tr, Session: client.New(tr, client.Options{})}, nil
	}
}

// typeText sends each rune of s as a key press.
func typeText(tm *teatest.TestModel, s string) {
	for _, r := range s {
		tm.Send(keyPress(string(r)))
	}
}

// TestFlowDemoJourney drives the real program against the in-process demo
// server over MCP-Flow: connect, list the tools, read 1 MiB over an
// execution stream, open the hex dump of the first control frame, start
// analyze and cancel it, then quit with $/shutdown.
func TestFlowDemoJourney(t *testing.T) {
	d := flowtest.Start(t, flow.Config{})
	store := capture.NewStore(capture.Config{})
	probe := &screenProbe{Model: New(Config{Store: store, Dial: flowDialer(d), Target: d.Target(), Demo: true})}
	tm := probe.run(t, 170, 50)

	probe.waitText(t, "MCP-Flow READY", "enc cbor", "mcpscope-demo")
	tm.Send(keyPress("t"))
	probe.waitText(t, "result · tools/list")

	tm.Send(keyPress("R"))
	probe.waitScreen(t, "a finished 1 MiB stream", func(s string) bool {
		return lineWith(s, "3/1", "application/octet-stream", "1.0 MiB", "done")
	})

	// The hex dump of the first control frame labels its length prefix.
	tm.Send(keyPress("/"))
	typeText(tm, "control")
	tm.Send(keyPress("enter"))
	tm.Send(keyPress("home"))
	tm.Send(keyPress("x"))
	first := firstControlFrame(t, store)
	probe.waitText(t, "Hex dump · seq "+fmt.Sprint(first.Seq), fmt.Sprintf("■ length = %d", first.Size-protoflow.ControlHeaderLen))
	tm.Send(keyPress("esc")) // clears the filter

	tm.Send(keyPress("a"))
	probe.waitText(t, "datagram progress · tools/call analyze")
	tm.Send(keyPress("/"))
	typeText(tm, "analyze")
	tm.Send(keyPress("enter"))
	// The filter reads older frames in steps: select the first match until
	// the detail shows the analyze request itself.
	probe.waitScreen(t, "the analyze request selected", func(s string) bool {
		if strings.Contains(s, `"interval_ms"`) {
			return true
		}
		tm.Send(keyPress("home"))
		return false
	})
	tm.Send(keyPress("ctrl+x"))
	// The status line says either "tools/call cancelled" or "cancelled
	// request 4", whichever of the two reports arrives last. The request
	// and its $/cancel are marked, and the answer reads as the
	// cancellation, not as MCP-Flow's Stream Limit Exceeded.
	s := probe.waitText(t, "tools/call analyze "+markCancelled, "$/cancel "+markCancelled+" · tools/call analyze",
		"error -32000 Cancelled · tools/call analyze", "cancelled")
	if strings.Contains(s, "Stream Limit") {
		t.Errorf("the answer to the cancel names the stream limit:\n%s", s)
	}

	tm.Send(keyPress("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(guard.Hang))
	if !hasFrame(store, capture.Out, protoflow.MethodFlowShutdown) {
		t.Error("quitting did not send $/shutdown")
	}
}

// TestFlowReconnect reconnects with r and keeps the frames of the first
// session beside those of the second, whose connection is named wt#2.
func TestFlowReconnect(t *testing.T) {
	d := flowtest.Start(t, flow.Config{})
	store := capture.NewStore(capture.Config{})
	probe := &screenProbe{Model: New(Config{Store: store, Dial: flowDialer(d), Target: d.Target(), OnConnect: []Request{ListTools}})}
	tm := probe.run(t, 170, 50)
	probe.waitText(t, "result · tools/list", "MCP-Flow READY")
	tm.Send(keyPress("r"))
	probe.waitScreen(t, "two tools/list results", func(s string) bool { return strings.Count(s, "result · tools/list") == 2 })
	probe.waitText(t, "MCP-Flow READY")
	conns := map[string]bool{}
	for _, f := range store.Window(1, store.Len()) {
		conns[f.Conn] = true
	}
	if !conns["wt"] || !conns["wt#2"] {
		t.Errorf("connections in the store: %v, want wt and wt#2", conns)
	}
	screentest.CheckAskedProgress(t, store, mcp.MethodToolsList) // the OnConnect requests
	tm.Send(keyPress("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(guard.Hang))
}

// lineWith reports whether one line of s holds every part.
func lineWith(s string, parts ...string) bool {
	for _, l := range strings.Split(s, "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(l, p)
		}
		if all {
			return true
		}
	}
	return false
}

// firstControlFrame is the first frame of the control stream.
func firstControlFrame(t *testing.T, st *capture.Store) *capture.Frame {
	t.Helper()
	for _, f := range st.Window(1, st.Len()) {
		if f.Chan.Kind == capture.Control {
			return f
		}
	}
	t.Fatal("no control frame was captured")
	return nil
}

// hasFrame reports whether the store holds a message with method sent in dir.
func hasFrame(st *capture.Store, dir capture.Dir, method string) bool {
	for _, f := range st.Window(1, st.Len()) {
		if f.Dir == dir && f.Msg != nil && f.Msg.Method == method {
			return true
		}
	}
	return false
}
