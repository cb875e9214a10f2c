package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// The demo's own {"type":"ping"} on tools-ws (seed 004 lets a server send
// one unsolicited) reads as the keep-alive it is: a plain row, no decode
// error, not found by the error filter.
func TestToolsWSPingRow(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	screentest.ConnectDemoToolsWS(t, st)
	var ping *capture.Frame
	screentest.WaitFor(t, "the demo's ping", func() bool {
		for _, f := range st.Window(1, st.Len()) {
			if f.Dir == capture.In && string(f.Raw) == `{"type":"ping"}` {
				ping = f
				return true
			}
		}
		return false
	})
	m := newTestModel(t, st, 140, 30)
	label, tone := frameLabel(ping, m.idx, mcp.DialectMCP)
	if ping.Err != nil || tone != tonePlain || !strings.HasPrefix(label, "ping (tools-ws keep-alive") {
		t.Errorf("the ping reads %q (tone %v, err %v)", label, tone, ping.Err)
	}
	if parseFilter("error").match(ping, m.idx) {
		t.Error("the error filter finds the ping")
	}
}
