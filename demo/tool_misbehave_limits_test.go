package demo

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// The control floods need MCP-Flow: elsewhere they are refused with -32602
// naming the mode, before anything is sent.
func TestControlFloodsNeedFlow(t *testing.T) {
	s := newTestServer(t)
	for _, mode := range []string{ModeStreamErrorFlood, ModeShutdownFlood} {
		m := callTool(t, s, "misbehave", map[string]any{"mode": mode, "count": 3})
		if rpcCode(m) != mcp.CodeInvalidParams || !strings.Contains(m.Error.Message, `misbehave mode "`+mode+`" needs MCP-Flow`) {
			t.Errorf("%s: answer %s %+v", mode, m.Result, m.Error)
		}
	}
}

// The HTTP modes need HTTP: elsewhere they are refused with -32602 naming
// HTTP; a Saboteur that lists a mode is asked, with the call's arguments.
func TestHTTPModesNeedHTTP(t *testing.T) {
	s := newTestServer(t)
	for _, mode := range HTTPModes {
		m := callTool(t, s, "misbehave", map[string]any{"mode": mode})
		if rpcCode(m) != mcp.CodeInvalidParams || !strings.Contains(m.Error.Message, `misbehave mode "`+mode+`" needs HTTP; this transport cannot do it`) {
			t.Errorf("%s: answer %s %+v", mode, m.Result, m.Error)
		}
	}
	sab := &saboteurRecorder{recorder: newRecorder(), modes: []string{ModeHugeEvent}}
	c := s.NewConn(sab)
	defer c.Close()
	c.Handle(request(t, 1, "tools/call", map[string]any{"name": "misbehave", "arguments": map[string]any{"mode": ModeHugeEvent, "size": 9}}))
	if m := sab.response(t, 1); !strings.Contains(string(m.Result), "misbehaved: did huge_event") || !strings.Contains(sab.args, `"size":9`) {
		t.Errorf("huge_event: %s, args %s", m.Result, sab.args)
	}
}

// saboteurRecorder is a recorder that performs the modes it lists.
type saboteurRecorder struct {
	*recorder
	modes []string
	args  string
}

func (s *saboteurRecorder) Modes() []string { return s.modes }

func (s *saboteurRecorder) Sabotage(_ context.Context, mode string, _ jsonrpc.ID, args json.RawMessage) (string, error) {
	s.args = string(args)
	return "did " + mode, nil
}
