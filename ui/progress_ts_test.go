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

// TestTSLongRunningReportsProgress calls trigger-long-running-operation
// on the TypeScript reference server: the request asks for progress, the
// server reports each step, and the traffic pane shows every report as a
// frame of the call.
func TestTSLongRunningReportsProgress(t *testing.T) {
	argv := peertest.TSEverything(t, "stdio")
	store := capture.NewStore(capture.Config{})
	long := Request{Method: proto.MethodToolsCall, Params: map[string]any{
		"name": "trigger-long-running-operation", "arguments": map[string]any{"duration": 0.4, "steps": 2}}}
	probe := &screenProbe{Model: New(Config{Store: store, Dial: stdioDialer(argv), Target: "server-everything",
		OnConnect: []Request{long}})}
	t.Cleanup(func() { _ = probe.Close() })
	tm := teatest.NewTestModel(t, probe, teatest.WithInitialTermSize(220, 45)) // wide enough for the whole label
	call := "tools/call trigger-long-running-operation"
	probe.waitText(t, "result · "+call)
	probe.waitScreen(t, "two progress rows of the call", func(s string) bool {
		return strings.Count(s, proto.MethodNotifyProgress+" · "+call) == 2
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
