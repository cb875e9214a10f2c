package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// longRun is the real program on a 220×45 screen (wide enough for the
// whole labels) that called the TypeScript reference server's
// trigger-long-running-operation right after connecting.
type longRun struct {
	t     *testing.T
	store *capture.Store
	probe *screenProbe
	tm    *teatest.TestModel
}

// tsLongRunCall is how the traffic names the long-running call.
const tsLongRunCall = "tools/call trigger-long-running-operation"

// startLongRunning connects to the TypeScript reference server over stdio
// and calls trigger-long-running-operation for duration seconds in steps.
func startLongRunning(t *testing.T, duration float64, steps int) *longRun {
	t.Helper()
	return startLongRunningOn(t, stdioTransport(peertest.TSEverything(t, "stdio")), client.Options{}, duration, steps)
}

// startLongRunningOn connects through newTransport, the session configured
// by opts, and calls trigger-long-running-operation for duration seconds in
// steps.
func startLongRunningOn(t *testing.T, newTransport transportFor, opts client.Options, duration float64, steps int) *longRun {
	t.Helper()
	store := capture.NewStore(capture.Config{})
	long := Request{Method: mcp.MethodToolsCall, Params: map[string]any{
		"name": "trigger-long-running-operation", "arguments": map[string]any{"duration": duration, "steps": steps}}}
	probe := &screenProbe{Model: New(Config{Store: store, Dial: dialerFor(newTransport, opts), Target: "server-everything", OnConnect: []Request{long}})}
	return &longRun{t: t, store: store, probe: probe, tm: probe.run(t, 220, 45)}
}

// quit ends the program.
func (r *longRun) quit() {
	r.tm.Send(keyPress("q"))
	r.tm.WaitFinished(r.t, teatest.WithFinalTimeout(guard.Hang))
}

// TestTSLongRunningReportsProgress calls trigger-long-running-operation
// on the TypeScript reference server: the request asks for progress, the
// server reports each step, the traffic pane shows every report as a
// frame of the call, and the progress strip its finished bar.
func TestTSLongRunningReportsProgress(t *testing.T) {
	t.Parallel()
	startLongRunning(t, 0.4, 2).checkProgress()
}

// checkProgress waits for the call of a two-step run to end, its two
// progress reports shown as frames of the call and its bar finished on the
// progress strip, and quits.
func (r *longRun) checkProgress() {
	t, probe := r.t, r.probe
	t.Helper()
	call := tsLongRunCall
	probe.waitText(t, "result · "+call)
	probe.waitScreen(t, "two progress rows of the call", func(s string) bool {
		return strings.Count(s, mcp.MethodNotifyProgress+" · "+call) == 2
	})
	// Stdio and HTTP have no Datagrams pane: the bar is on the strip under the traffic.
	probe.waitScreen(t, "the call's finished bar on the progress strip", func(s string) bool {
		return strings.Contains(s, "Progress · 1 request") && lineWith(s, "100% 2/2 ✓ done", call)
	})
	var id string
	for _, f := range r.store.Window(1, r.store.Len()) {
		if f.Dir == capture.Out && f.Msg != nil && f.Msg.Method == mcp.MethodToolsCall {
			id = frameID(f)
		}
		if f.Msg != nil && f.Msg.Method == mcp.MethodNotifyProgress && frameID(f) != id {
			t.Errorf("progress frame %d shows id %q, want the call's %q", f.Seq, frameID(f), id)
		}
	}
	r.quit()
}

// Long enough a run that its cancel comes while it is in flight, however
// slow the machine: the cancel tests call trigger-long-running-operation for
// cancelRunDuration seconds in cancelRunSteps steps (one every 0.2 s).
const (
	cancelRunDuration = 60
	cancelRunSteps    = 300
)

// TestTSLongRunningBarAndCancel drives trigger-long-running-operation on
// the TypeScript reference server over stdio: the progress strip under
// the traffic shows its bar while the traffic stays on screen; the cancel
// key on its request sends notifications/cancelled, marks the request and
// the cancellation, ends the bar "cancelled", and flags the progress the
// server keeps sending after the cancel.
func TestTSLongRunningBarAndCancel(t *testing.T) {
	t.Parallel()
	startLongRunning(t, cancelRunDuration, cancelRunSteps).checkCancel()
}

// checkCancel waits for the running bar of a cancelRunSteps run, cancels
// the call (cancelCall), checks the marks of the cancel and of the
// progress after it, and quits.
func (r *longRun) checkCancel() {
	t, probe := r.t, r.probe
	t.Helper()
	call := tsLongRunCall
	steps := fmt.Sprintf("/%d", cancelRunSteps)
	probe.waitScreen(t, "a running bar on the progress strip", func(s string) bool {
		return strings.Contains(s, "Progress · 1 request") && lineWith(s, steps+" · ", call) && !lineWith(s, steps+" ✕")
	})
	r.cancelCall(cancelRunSteps)
	s := probe.waitScreen(t, "the cancel marked and progress after it flagged", func(s string) bool {
		return lineWith(s, call+" "+markCancelled) &&
			lineWith(s, mcp.MethodNotifyCancelled+" "+markCancelled+" · tools/call trigger") &&
			strings.Contains(s, markCancelled+" by frame") && // the detail of the request
			lineWith(s, steps+" "+markCancelled, markAfterCancel) &&
			lineWith(s, mcp.MethodNotifyProgress+" ✕ "+markAfterCancel)
	})
	if strings.Contains(s, "✓ done") {
		t.Errorf("the cancelled call reads as done:\n%s", s)
	}
	r.quit() // the cancelled call is no longer in flight: q quits at once
}

// cancelCall filters the traffic to the long-running call of steps steps,
// selects its request (its detail on screen) and cancels it with ctrl+x.
func (r *longRun) cancelCall(steps int) {
	t, probe, tm := r.t, r.probe, r.tm
	t.Helper()
	tm.Send(keyPress("/"))
	typeText(tm, "trigger")
	tm.Send(keyPress("enter"))
	probe.waitScreen(t, "the request selected", func(s string) bool {
		if strings.Contains(s, "request · id") && strings.Contains(s, fmt.Sprintf(`"steps": %d`, steps)) { // its detail
			return true
		}
		tm.Send(keyPress("home"))
		return false
	})
	tm.Send(keyPress("ctrl+x"))
}
