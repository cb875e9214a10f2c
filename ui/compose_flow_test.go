package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	protoflow "github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/stdio"
)

// composeSend picks method in the open composer's picker, whose filter it
// clears first, and opens its editor.
func composeSend(tm *teatest.TestModel, method string) {
	tm.Send(screentest.Ctrl('u')) // clears the filter
	typeText(tm, method)
	tm.Send(keyPress("enter"))
}

// TestComposeFlowDemo drives the composer of the real program against the
// in-process demo over MCP-Flow: a tools/call of echo typed into the
// editor, a ping, an unknown method answered -32601, and a notification
// that shows up in the traffic pane as sent.
func TestComposeFlowDemo(t *testing.T) {
	d := flowtest.Start(t, flow.Config{})
	store := capture.NewStore(capture.Config{})
	probe := &screenProbe{Model: New(Config{Store: store, Dial: flowDialer(d), Target: d.Target()})}
	tm := probe.run(t, 150, 40)
	probe.waitText(t, "MCP-Flow READY")

	tm.Send(keyPress(":"))
	probe.waitText(t, "Compose · pick a method", protoflow.MethodFlowShutdown)
	composeSend(tm, "tools/call")
	probe.waitText(t, "Compose · request tools/call", `"arguments": {}`)
	for _, k := range []string{"down", "end", "left", "left"} { // into "name": "|",
		tm.Send(keyPress(k))
	}
	typeText(tm, "echo")
	for _, k := range []string{"down", "end", "left"} { // into "arguments": {|}
		tm.Send(keyPress(k))
	}
	typeText(tm, `"message": "hi from the composer"`)
	tm.Send(screentest.Ctrl('s'))
	probe.waitText(t, "← result · tools/call · id", "hi from the composer")

	tm.Send(keyPress("esc"))
	tm.Send(keyPress("esc"))
	composeSend(tm, "ping")
	tm.Send(screentest.Ctrl('s'))
	probe.waitText(t, "← result · ping · id")

	tm.Send(keyPress("esc"))
	tm.Send(keyPress("esc"))
	composeSend(tm, "no/such")
	probe.waitText(t, "Compose · request no/such")
	tm.Send(screentest.Ctrl('s'))
	probe.waitText(t, "✗ error · no/such", "error -32601 Method not found")

	tm.Send(keyPress("esc"))
	tm.Send(keyPress("esc"))
	composeSend(tm, mcp.MethodNotifyRootsListChanged)
	probe.waitText(t, "Compose · notification "+mcp.MethodNotifyRootsListChanged)
	tm.Send(screentest.Ctrl('s'))
	probe.waitText(t, "→ notification sent · "+mcp.MethodNotifyRootsListChanged)
	for range 3 {
		tm.Send(keyPress("esc"))
	}
	probe.waitScreen(t, "the notification as sent in the traffic pane", func(s string) bool {
		return !strings.Contains(s, "Compose ·") && lineWith(s, "→", mcp.MethodNotifyRootsListChanged)
	})
	probe.waitText(t, "MCP-Flow READY") // the session outlived the unknown method
	if !hasFrame(store, capture.Out, "no/such") || !hasFrame(store, capture.Out, mcp.MethodPing) {
		t.Error("the composed requests were not captured")
	}
	tm.Send(keyPress("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(guard.Hang))
}

// TestComposeFlowTSPeer sends resources/list from the composer to the
// TypeScript reference server over stdio and shows what it answered.
func TestComposeFlowTSPeer(t *testing.T) {
	t.Parallel()
	argv := peertest.TSEverything(t, "stdio")
	dial := func(sink capture.Sink) (Link, error) {
		tr := stdio.New(stdio.Config{Command: argv[0], Args: argv[1:], Sink: sink})
		return Link{Transport: tr, Session: client.New(tr, client.Options{})}, nil
	}
	store := capture.NewStore(capture.Config{})
	probe := &screenProbe{Model: New(Config{Store: store, Dial: dial, Target: "stdio " + strings.Join(argv[1:], " ")})}
	tm := probe.run(t, 150, 40)
	probe.waitText(t, "MCP connected")

	tm.Send(keyPress(":"))
	composeSend(tm, "resources/list")
	probe.waitText(t, "Compose · request resources/list")
	tm.Send(screentest.Ctrl('s'))
	probe.waitText(t, "← result · resources/list · id", `"resources": [`)
	first := firstResourceName(t, store)
	probe.waitText(t, `"name": "`+first+`"`)
	tm.Send(keyPress("q")) // the composer has the keys: no quitting
	tm.Send(keyPress("esc"))
	probe.waitText(t, "Compose · request resources/list")
	tm.Send(screentest.Ctrl('c')) // quits from anywhere
	tm.WaitFinished(t, teatest.WithFinalTimeout(guard.Hang))
}

// firstResourceName is the name of the first resource in the captured
// resources/list result.
func firstResourceName(t *testing.T, st *capture.Store) string {
	t.Helper()
	for _, f := range st.Window(1, st.Len()) {
		if f.Dir != capture.In || f.Msg == nil || f.Msg.Kind() != jsonrpc.KindResult {
			continue
		}
		var r struct {
			Resources []struct{ Name string } `json:"resources"`
		}
		if json.Unmarshal(f.Msg.Result, &r) == nil && len(r.Resources) > 0 {
			return r.Resources[0].Name
		}
	}
	t.Fatal("no resources/list result was captured")
	return ""
}
