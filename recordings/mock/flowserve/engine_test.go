package flowserve

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// replies answers every message with the same replies.
type replies [][]byte

func (r replies) Handle([]byte) [][]byte { return r }

// sent is an Outbound that keeps what it is sent.
type sent struct{ msgs []*jsonrpc.Message }

func (s *sent) Send(m *jsonrpc.Message) error { s.msgs = append(s.msgs, m); return nil }

func (s *sent) Emitter(context.Context, demo.CallInfo) demo.Emitter { return nil }

// testConn is a session of an engine whose Answerer returns r.
func testConn(r replies, notes *bytes.Buffer) (*conn, *sent) {
	out := &sent{}
	e := &engine{newConn: func() Answerer { return r }, notes: &notesWriter{w: notes}, log: slog.New(slog.DiscardHandler)}
	return e.NewConn(out).(*conn), out
}

func request(t testing.TB, id int64, method string) *jsonrpc.Message {
	m, err := jsonrpc.Decode(proto.EncJSON, []byte(`{"jsonrpc":"2.0","id":`+jsonrpc.IntID(id).String()+`,"method":"`+method+`","params":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The recorded initialize result gets this session's transport object in
// place of the recorded one; what came before the answer goes out first.
func TestInitializeTransport(t *testing.T) {
	c, out := testConn(replies{
		[]byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}`),
		[]byte(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","transport":{"encoding":"json"}}}`),
	}, new(bytes.Buffer))
	res, rerr := c.Initialize(request(t, 1, "initialize"), flow.FlowTransport{Type: "mcp-flow", Encoding: "cbor", DatagramsSupported: true})
	if rerr != nil {
		t.Fatal(rerr)
	}
	b, _ := json.Marshal(res)
	if string(b) != `{"protocolVersion":"2025-06-18","transport":{"type":"mcp-flow","version":"","encoding":"cbor","maxConcurrentStreams":0,"datagramsSupported":false,"maxFrameSize":0}}` {
		t.Errorf("result %s", b)
	}
	if len(out.msgs) != 1 || out.msgs[0].Method != "notifications/message" {
		t.Errorf("sent %v", out.msgs)
	}
}

// An error answer to initialize is the session's error; no answer, or a
// result that is no object, is an internal error saying so.
func TestInitializeRefused(t *testing.T) {
	for reply, want := range map[string]string{
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"no recorded initialize is like it"}}`: "no recorded initialize is like it",
		`{"jsonrpc":"2.0","id":9,"result":{}}`:  "the recording holds no answer to initialize",
		`{"jsonrpc":"2.0","id":1,"result":[1]}`: "not an object",
		`not json`:                              "the recording holds no answer to initialize",
	} {
		c, _ := testConn(replies{[]byte(reply)}, new(bytes.Buffer))
		_, rerr := c.Initialize(request(t, 1, "initialize"), flow.FlowTransport{})
		if rerr == nil || !strings.Contains(rerr.Message, want) {
			t.Errorf("%s: %v", reply, rerr)
		}
	}
}

// A result that refers to execution streams goes out as recorded, then a
// $/streamError for each stream; a note (once) says they are not replayed.
func TestStreamsRefused(t *testing.T) {
	var notes bytes.Buffer
	c, out := testConn(replies{[]byte(`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"ref/stream","streamTag":1},{"type":"text","text":"ref/stream"},{"type":"ref/stream","streamTag":4}]}}`)}, &notes)
	c.Handle(request(t, 2, "tools/call"))
	c.Handle(request(t, 3, "tools/call"))
	if len(out.msgs) != 6 || strings.Count(notes.String(), "\n") != 1 || !strings.HasPrefix(notes.String(), "note: an answer refers to an execution stream") {
		t.Fatalf("sent %d, notes %q", len(out.msgs), notes.String())
	}
	for i, tag := range map[int]string{1: "1", 2: "4"} {
		if m := out.msgs[i]; m.Method != "$/streamError" || string(m.Params) != `{"requestId":2,"streamTag":`+tag+`,"error":"mcpscope mock does not replay execution streams"}` {
			t.Errorf("message %d: %s %s", i, m.Method, m.Params)
		}
	}
}

// Whatever the Answerer returns, the session neither panics nor sends
// what is no JSON-RPC message.
func FuzzAnswers(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18"}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":null}`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"x","params":{"content":"ref/stream"}}`))
	f.Fuzz(func(t *testing.T, reply []byte) {
		c, out := testConn(replies{reply, reply}, new(bytes.Buffer))
		_, _ = c.Initialize(request(t, 1, "initialize"), flow.FlowTransport{})
		c.Handle(request(t, 2, "tools/list"))
		for _, m := range out.msgs {
			if _, err := jsonrpc.Encode(proto.EncCBOR, m); err != nil {
				t.Fatalf("sent %+v: %v", m, err)
			}
		}
	})
}
