package gateway

import (
	"encoding/json"
	"fmt"
)

// ToolsFramePing is the type of the keep-alive frame a server of seed 004's
// WebSocket dialect may send unsolicited: {"type":"ping"}.
const ToolsFramePing = "ping"

// ToolsFrameType reads an unsolicited frame of seed 004's WebSocket dialect
// (tools-ws), such as the keep-alive {"type":"ping"}: a JSON object with a
// string "type" member and neither "jsonrpc" nor "id". It returns the type,
// or ok false for anything else (a JSON-RPC message, a StreamMessage, which
// has an id, a body that is not an object).
func ToolsFrameType(b []byte) (typ string, ok bool) {
	var w struct {
		Type    *string          `json:"type"`
		JSONRPC *json.RawMessage `json:"jsonrpc"`
		ID      *json.RawMessage `json:"id"`
	}
	if json.Unmarshal(b, &w) != nil || w.Type == nil || w.JSONRPC != nil || w.ID != nil {
		return "", false
	}
	return *w.Type, true
}

// ToolsFrameSummary words an unsolicited frame of type typ of seed 004's
// WebSocket dialect for a traffic row or a trace line: the keep-alive ping,
// or another kind, which the client ignores as the seed says. A type other
// than ping is quoted, so that server text cannot reach a terminal raw.
func ToolsFrameSummary(typ string) string {
	if typ == ToolsFramePing {
		return "ping (tools-ws keep-alive)"
	}
	return fmt.Sprintf("%q frame (tools-ws, not a tool answer: ignored)", typ)
}
