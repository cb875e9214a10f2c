package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// The server/discover probe an older server refuses reads as a probe
// followed by the legacy handshake, not as a red error row.
func TestDiscoverProbeReadsAsAProbe(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	add := func(dir capture.Dir, m *proto.Message) { st.Append(controlFrame(t, dir, c.next(), proto.EncJSON, m)) }
	add(capture.Out, request(t, 1, proto.MethodDiscover, map[string]any{}))
	add(capture.In, proto.NewErrorResponse(proto.IntID(1), proto.CodeMethodNotFound, "Method not found", nil))
	add(capture.Out, request(t, 2, proto.MethodInitialize, map[string]any{}))
	m := newTestModel(t, st, 140, 30)

	f, _ := st.Get(1)
	if label, tone := frameLabel(f, m.idx, proto.DialectMCP); tone != tonePlain || !strings.Contains(label, "probe") {
		t.Errorf("the probe request reads %q (tone %v)", label, tone)
	}
	f, _ = st.Get(2)
	label, tone := frameLabel(f, m.idx, proto.DialectMCP)
	if tone != tonePlain || !strings.HasPrefix(label, "probe answered error -32601") || !strings.HasSuffix(label, "→ legacy handshake") {
		t.Errorf("the probe answer reads %q (tone %v), want a probe answer that is not an error row", label, tone)
	}
}

// An SSE event that carries no message (a priming event, a heartbeat)
// reads as one, not as a batch.
func TestEventWithoutMessageRow(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	st.Append(&capture.Frame{Dir: capture.In, Conn: "http POST 2", Raw: []byte("id: 7\ndata: \n\n"), Enc: proto.EncText})
	m := newTestModel(t, st, 140, 30)
	f, _ := st.Get(1)
	if label, _ := frameLabel(f, m.idx, proto.DialectMCP); label != "event without a message (priming or heartbeat)" {
		t.Errorf("label %q", label)
	}
}

// A gateway StreamMessage reads as one: its type, its stream, what a
// start invokes, an error's code and message.
func TestGatewayStreamMessageRow(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	for _, raw := range []string{
		`{"type":"start","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2024-12-04T10:00:00Z","meta":{"method":"system_binary_streams_out","binary":true}}`,
		`{"type":"error","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2024-12-04T10:00:03Z","error":{"code":-32000,"message":"Stream timeout\u001b]0;x\u0007"}}`,
	} {
		st.Append(&capture.Frame{Dir: capture.In, Conn: "ws", Raw: []byte(raw), Enc: proto.EncJSON})
	}
	m := newTestModel(t, st, 140, 30)
	want := []string{"gateway start 550e8400 · system_binary_streams_out", "gateway error 550e8400 · -32000 Stream timeout"}
	for i, w := range want {
		f, _ := st.Get(uint64(i + 1))
		if label, _ := frameLabel(f, m.idx, proto.DialectMCP); !strings.HasPrefix(label, w) || strings.ContainsRune(label, 0x1b) {
			t.Errorf("label %q, want %q", label, w)
		}
	}
}

// The legacy transport's endpoint event reads as that event.
func TestEndpointEventRow(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	raw := []byte("event: endpoint\ndata: /message?sessionId=1\n\n")
	st.Append(&capture.Frame{Dir: capture.In, Conn: "http GET 1", Raw: raw, Enc: proto.EncText,
		Fields: []proto.Field{{Offset: 7, Len: 8, Name: "event", Value: "endpoint", Kind: proto.FieldHeader}}})
	m := newTestModel(t, st, 140, 30)
	f, _ := st.Get(1)
	if label, _ := frameLabel(f, m.idx, proto.DialectMCP); label != "event endpoint (no JSON-RPC message)" {
		t.Errorf("label %q", label)
	}
}
