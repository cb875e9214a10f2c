package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/flowtest"
	"github.com/mcpscope/mcpscope/internal/peertest"
	"github.com/mcpscope/mcpscope/proto"
)

// startLongRunning connects to the TypeScript reference server over stdio
// on a 220×45 screen (wide enough for the whole labels) and calls
// trigger-long-running-operation for duration seconds in steps.
func startLongRunning(t *testing.T, duration float64, steps int) (*capture.Store, *screenProbe, *teatest.TestModel) {
	t.Helper()
	argv := peertest.TSEverything(t, "stdio")
	store := capture.NewStore(capture.Config{})
	long := Request{Method: proto.MethodToolsCall, Params: map[string]any{
		"name": "trigger-long-running-operation", "arguments": map[string]any{"duration": duration, "steps": steps}}}
	probe := &screenProbe{Model: New(Config{Store: store, Dial: stdioDialer(argv), Target: "server-everything",
		OnConnect: []Request{long}})}
	t.Cleanup(func() { _ = probe.Close() })
	return store, probe, teatest.NewTestModel(t, probe, teatest.WithInitialTermSize(220, 45))
}

// TestTSLongRunningReportsProgress calls trigger-long-running-operation
// on the TypeScript reference server: the request asks for progress, the
// server reports each step, the traffic pane shows every report as a
// frame of the call, and the progress strip its finished bar.
func TestTSLongRunningReportsProgress(t *testing.T) {
	store, probe, tm := startLongRunning(t, 0.4, 2)
	call := "tools/call trigger-long-running-operation"
	probe.waitText(t, "result · "+call)
	probe.waitScreen(t, "two progress rows of the call", func(s string) bool {
		return strings.Count(s, proto.MethodNotifyProgress+" · "+call) == 2
	})
	// Stdio has no Datagrams pane: the bar is on the strip under the traffic.
	probe.waitScreen(t, "the call's finished bar on the progress strip", func(s string) bool {
		return strings.Contains(s, "Progress · 1 request") && lineWith(s, "100% 2/2 ✓ done", call)
	})
	var id string
	for _, f := range store.Window(1, store.Len()) {
		if f.Dir == capture.Out && f.Msg != nil && f.Msg.Method == proto.MethodToolsCall {
			id = frameID(f)
		}
		if f.Msg != nil && f.Msg.Method == proto.MethodNotifyProgress && frameID(f) != id {
			t.Errorf("progress frame %d shows id %q, want the call's %q", f.Seq, frameID(f), id)
		}
	}
	tm.Send(keyPress("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(flowtest.HangGuard))
}

// TestTSLongRunningBarAndCancel drives trigger-long-running-operation on
// the TypeScript reference server over stdio: the progress strip under
// the traffic shows its bar while the traffic stays on screen; the cancel
// key on its request sends notifications/cancelled, marks the request and
// the cancellation, ends the bar "cancelled", and flags the progress the
// server keeps sending after the cancel.
func TestTSLongRunningBarAndCancel(t *testing.T) {
	_, probe, tm := startLongRunning(t, 3, 15)
	call := "tools/call trigger-long-running-operation"
	probe.waitScreen(t, "a running bar on the progress strip", func(s string) bool {
		return strings.Contains(s, "Progress · 1 request") && lineWith(s, "/15 · ", call) && !lineWith(s, "/15 ✕")
	})
	tm.Send(keyPress("/"))
	typeText(tm, "trigger")
	tm.Send(keyPress("enter"))
	probe.waitScreen(t, "the request selected", func(s string) bool {
		if strings.Contains(s, "request · id") && strings.Contains(s, `"steps": 15`) { // its detail
			return true
		}
		tm.Send(keyPress("home"))
		return false
	})
	tm.Send(keyPress("ctrl+x"))
	s := probe.waitScreen(t, "the cancel marked and progress after it flagged", func(s string) bool {
		return lineWith(s, call+" "+markCancelled) &&
			lineWith(s, proto.MethodNotifyCancelled+" "+markCancelled+" · tools/call trigger") &&
			strings.Contains(s, markCancelled+" by frame") && // the detail of the request
			lineWith(s, "/15 "+markCancelled, markAfterCancel) &&
			lineWith(s, proto.MethodNotifyProgress+" ✕ "+markAfterCancel)
	})
	if strings.Contains(s, "✓ done") {
		t.Errorf("the cancelled call reads as done:\n%s", s)
	}
	tm.Send(keyPress("q")) // the cancelled call is no longer in flight: q quits at once
	tm.WaitFinished(t, teatest.WithFinalTimeout(flowtest.HangGuard))
}
