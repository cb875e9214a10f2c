package demo

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
)

// The control floods need MCP-Flow: elsewhere they are refused with -32602
// naming the mode, before anything is sent.
func TestControlFloodsNeedFlow(t *testing.T) {
	s := newTestServer(t)
	for _, mode := range []string{ModeStreamErrorFlood, ModeShutdownFlood} {
		m := callTool(t, s, "misbehave", map[string]any{"mode": mode, "count": 3})
		if rpcCode(m) != proto.CodeInvalidParams || !strings.Contains(m.Error.Message, `misbehave mode "`+mode+`" needs MCP-Flow`) {
			t.Errorf("%s: answer %s %+v", mode, m.Result, m.Error)
		}
	}
}
