package ws

import (
	"testing"

	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"

	"github.com/mcpscope/mcpscope/capture"
)

// FuzzToolAnswer: whatever a tools-ws server sends, reading it never
// panics, only an answer to a call in flight is delivered, once, and a
// frame not delivered is the tools frames' own ping, a notification, or
// says why it was ignored.
func FuzzToolAnswer(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}`,
		`{"type":"ping"}`, `[{"jsonrpc":"2.0","id":1,"result":{}}]`, `{"id":"1","result":{}}`, `{`, "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr := &Transport{}
		tr.tools.add(jsonrpc.IntID(1))
		fr := &capture.Frame{}
		m := tr.toolAnswer(data, fr)
		if m == nil {
			_, ownType := gateway.ToolsFrameType(data)
			notification := fr.Msg != nil && fr.Msg.Kind() == jsonrpc.KindNotification && fr.Msg.Violation == nil
			if fr.Err == nil && !ownType && !notification {
				t.Fatal("an ignored frame says nothing")
			}
			return
		}
		if n, ok := idOf(m); !ok || n != 1 {
			t.Fatalf("delivered %+v", m)
		}
		if tr.toolAnswer(data, &capture.Frame{}) != nil {
			t.Fatal("the same answer was delivered twice")
		}
	})
}

// FuzzGatewayMessages: whatever a gateway server sends, text or binary, in
// whatever order, reading it never panics and every StreamMessage it
// reports either passed its checks or says which it failed.
func FuzzGatewayMessages(f *testing.F) {
	start, _ := gateway.EncodeStreamMessage(&gateway.StreamMessage{Type: gateway.StreamStart, ID: knownGUID, Meta: &gateway.StreamMeta{Method: "m", Binary: true}})
	f.Add(start, gateway.AppendGatewayChunk(nil, knownGUID, 0, []byte("x")), []byte(`{"type":"done","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2024-12-04T10:00:05Z"}`))
	f.Add([]byte(`{"type":"chunk","id":null}`), []byte{1, 2}, []byte(`{"jsonrpc":"2.0","method":"x"}`))
	f.Fuzz(func(t *testing.T, a, b, c []byte) {
		tr, err := New(Config{URL: "ws://127.0.0.1:1/", Mode: ModeGateway, OnStream: func(ev StreamEvent) {
			if ev.Type != gateway.StreamStart && ev.Type != gateway.StreamChunk && ev.Type != gateway.StreamDone && ev.Type != gateway.StreamError {
				t.Fatalf("event of type %q", ev.Type)
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		tr.deliver = func(*jsonrpc.Message) {}
		for _, data := range [][]byte{a, b, c} {
			tr.readGatewayText(data)
			tr.readGatewayChunk(data)
		}
	})
}
