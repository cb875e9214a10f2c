package demows

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// A tool frame becomes a tools/call echoing its id, or a refusal, never
// both; nothing panics.
func FuzzDecodeToolFrame(f *testing.F) {
	f.Add([]byte(`{"id":7,"name":"echo","arguments":{"message":"hi"}}`))
	f.Add([]byte(`{"id":"7","name":"echo"}`))
	f.Add([]byte(`{"type":"ping"}`))
	f.Add([]byte(`[1]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		call, refusal := decodeToolFrame(b)
		if call != nil && refusal != nil {
			t.Fatalf("%s: both a call and a refusal", b)
		}
		if call != nil {
			if _, ok := call.ID.Int(); !ok || call.Method != mcp.MethodToolsCall {
				t.Fatalf("%s: call %+v", b, call)
			}
		}
		if refusal != nil && refusal.Error == nil {
			t.Fatalf("%s: refusal without an error", b)
		}
	})
}

// Whatever a client sends the gateway, as text or binary, the connection
// goes on serving: a ping after it is answered.
func FuzzGatewayMessages(f *testing.F) {
	f.Add([]byte(start(ToolStreamsIn, "")), false)
	f.Add([]byte(start(ToolStreamsOut, `"totalSize":100`)), false)
	f.Add([]byte(start(ToolStreamsDuplex, "")), false)
	f.Add([]byte(start("misbehave", `"mode":"index_gap"`)), false)
	f.Add([]byte(`{"type":"done","id":"`+seedID+`","timestamp":"2024-12-04T10:00:05Z","summary":{"totalChunks":1}}`), false)
	f.Add([]byte(`{"jsonrpc":"2.0","id":"x","method":"tools/list"}`), false)
	f.Add(append(unhex(f, seedIDDotNet+" 00 00 00 00 00 00 00 00"), 'a'), true)
	s := startServer(f, Options{MaxStreamOut: 1 << 16, ChunkSize: 1024})
	c := s.dial(f, PathGateway, "mcp")
	n := 0
	f.Fuzz(func(t *testing.T, b []byte, bin bool) {
		c.t = t
		typ := websocket.MessageText
		if bin {
			typ = websocket.MessageBinary
		}
		c.send(typ, b)
		n++
		c.text(fmt.Sprintf(`{"jsonrpc":"2.0","id":"probe-%d","method":"ping"}`, n))
		want := fmt.Sprintf(`"id":"probe-%d","result"`, n)
		for {
			typ, raw := c.read()
			if typ == websocket.MessageText && bytes.Contains(raw, []byte(want)) {
				return
			}
		}
	})
}
