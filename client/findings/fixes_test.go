package findings

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/sse"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// A server that answers the server/discover probe and is then
// initialized to 2025-11-25 (the Go SDK's conformance server, stateful)
// speaks 2025-11-25: its logging and roots are not deprecated there.
func TestInitializeSetsEra(t *testing.T) {
	discover := []*capture.Frame{
		line(capture.Out, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+meta+`}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28","2025-11-25"]}}`),
	}
	after := func(version string) []*capture.Frame {
		return append(discover,
			line(capture.Out, `{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`),
			line(capture.In, `{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"`+version+`","capabilities":{"logging":{}},"serverInfo":{"name":"s","version":"1"}}}`),
			line(capture.In, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`),
			line(capture.In, `{"jsonrpc":"2.0","id":0,"method":"roots/list"}`),
		)
	}
	want(t, codesOf(after("2025-11-25")...))
	want(t, codesOf(after(mcp.Modern)...), "5 deprecated-logging", "6 deprecated-roots")
}

// A task's final result, inlined by a tasks/get that finds it completed,
// is judged against the outputSchema of the tool that started it.
func TestTaskResultJudged(t *testing.T) {
	frames := func(structured string) []*capture.Frame {
		return []*capture.Frame{
			line(capture.Out, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+meta+`}}`),
			line(capture.In, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":[{"name":"w","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"t":{"type":"number"}},"required":["t"]}}]}}`),
			line(capture.Out, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"w",`+meta+`}}`),
			line(capture.In, `{"jsonrpc":"2.0","id":2,"result":{"resultType":"task","taskId":"t1","status":"working","createdAt":"x","lastUpdatedAt":"x","ttlMs":null}}`),
			line(capture.Out, `{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"t1",`+meta+`}}`),
			line(capture.In, `{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","taskId":"t1","status":"completed","result":{"content":[],"structuredContent":`+structured+`}}}`),
		}
	}
	want(t, codesOf(frames(`{"t":"hot"}`)...), "6 structured-content-invalid")
	want(t, codesOf(frames(`{"t":21}`)...))
	d := NewDetector()
	var paths []string
	for i, f := range frames(`{"t":"hot"}`) {
		f.Seq = uint64(i + 1)
		for _, x := range d.Note(f) {
			paths = append(paths, x.Path+" "+string(f.Raw[x.Offset:x.Offset+x.Length]))
		}
	}
	want(t, paths, `result.result.structuredContent "structuredContent":{"t":"hot"}`)
}

// A string id is quoted once in a summary.
func TestStringIDQuotedOnce(t *testing.T) {
	d := NewDetector()
	d.Note(line(capture.Out, `{"jsonrpc":"2.0","id":"a","method":"ping"}`))
	d.Note(line(capture.In, `{"jsonrpc":"2.0","id":"a","result":{}}`))
	got := d.Note(line(capture.In, `{"jsonrpc":"2.0","id":"a","result":{}}`))
	if len(got) != 1 || !strings.Contains(got[0].Summary, `id "a" `) {
		t.Errorf("findings %+v, want one naming id \"a\"", got)
	}
}

// A finding about a member of an SSE event of several data lines names
// the member's bytes, not the whole event.
func TestSSEDataLinesSpan(t *testing.T) {
	raw := []byte("id: 9\r\nevent: message\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata:\r\ndata: \"id\":12,\"result\":{}}\r\n\r\n")
	msgs, _, err := jsonrpc.DecodeJSON([]byte(`{"jsonrpc":"2.0","id":12,"result":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	f := &capture.Frame{Seq: 1, Dir: capture.In, Conn: "stdio", Raw: raw, Size: len(raw), Fields: httphead.SSEEventFields(raw), Enc: proto.EncJSON, Msg: msgs[0]}
	got := NewDetector().Note(f)
	if len(got) != 1 || got[0].Code != CodeAnswerUnknownID || string(raw[got[0].Offset:got[0].Offset+got[0].Length]) != `"id":12` {
		t.Errorf("findings %+v, want answer-unknown-id on the bytes \"id\":12", got)
	}
}

// flowCoded is an error carrying an MCP-Flow code, as the transport's
// errors do.
type flowCoded int

func (c flowCoded) Code() int { return int(c) }
func (c flowCoded) Error() string {
	return fmt.Sprintf("%d: the server sent a frame in the other encoding", int(c))
}

// A control frame in the encoding the session did not agree on is an
// encoding mismatch, whichever way; a CBOR body is not judged as text.
func TestEncodingMismatch(t *testing.T) {
	text := `{"jsonrpc":"2.0","method":"notifications/x","params":{"t":"héllo"}}`
	cbor, err := jsonrpc.JSONToCBOR([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	msgs, _, _ := jsonrpc.DecodeJSON([]byte(text))
	for _, c := range []struct {
		enc  proto.Encoding
		body []byte
	}{{proto.EncCBOR, cbor}, {proto.EncJSON, []byte(text)}} {
		f := &capture.Frame{Dir: capture.In, Conn: "wt", Chan: capture.Channel{Kind: capture.Control}, Raw: c.body, Size: len(c.body), Enc: c.enc,
			Fields: []proto.Field{{Offset: 0, Len: len(c.body), Name: "body", Kind: proto.FieldBody}}, Msg: msgs[0], Err: flowCoded(mcp.CodeFlowEncodingMismatch)}
		want(t, codesOf(f), "1 encoding-mismatch")
		g := *f
		g.Err = fmt.Errorf("a second answer")
		want(t, codesOf(&g))
	}
}

// Frames missed (a reader fallen behind, frames dropped): answers to
// requests not seen, or answered unseen, are not errors.
func TestMissed(t *testing.T) {
	d := NewDetector()
	d.Note(line(capture.Out, `{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	d.Note(line(capture.In, `{"jsonrpc":"2.0","id":1,"result":{}}`))
	d.Missed()
	for _, text := range []string{`{"jsonrpc":"2.0","id":1,"result":{}}`, `{"jsonrpc":"2.0","id":7,"result":{}}`} {
		if got := d.Note(line(capture.In, text)); len(got) != 0 {
			t.Errorf("after frames missed, %s: %+v", text, got)
		}
	}
}

// A POST answered 200 with a Content-Type that is neither JSON nor SSE.
func TestAnswerContentType(t *testing.T) {
	frames := post("http POST 1", nil, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	answer := func(ct string) *capture.Frame {
		raw, fields := httphead.HTTPResponseHead("HTTP/1.1", 200, []httphead.HTTPHeader{{Name: "Content-Type", Value: ct}})
		return &capture.Frame{Dir: capture.In, Conn: "http POST 1", Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Size: len(raw), Fields: fields, Enc: proto.EncText}
	}
	want(t, codesOf(append(frames, answer("text/html; charset=utf-8"))...), "3 body-not-jsonrpc")
	want(t, codesOf(append(post("http POST 1", nil, `{"jsonrpc":"2.0","id":1,"method":"ping"}`), answer("application/json"))...))
}

// Many sessions of long request ids never answered keep the detector's
// memory small: requests are remembered by a hash, within one budget.
func TestRequestMemory(t *testing.T) {
	d := NewDetector()
	pad := strings.Repeat("x", 4096)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for s := range 8 {
		for i := range maxPending {
			f := line(capture.In, fmt.Sprintf(`{"jsonrpc":"2.0","id":"%s%d","method":"ping"}`, pad, i))
			f.Conn = fmt.Sprintf("stdio#%d", s)
			d.Note(f)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if held := int64(after.HeapAlloc) - int64(before.HeapAlloc); held > 32<<20 {
		t.Errorf("the detector holds %d MB", held>>20)
	}
	runtime.KeepAlive(d)
}

// A session first seen after frames were missed may have sent requests
// unseen: answers to them are not errors either.
func TestMissedBeforeSession(t *testing.T) {
	d := NewDetector()
	d.Missed()
	if got := d.Note(line(capture.In, `{"jsonrpc":"2.0","id":7,"result":{}}`)); len(got) != 0 {
		t.Errorf("an answer in a session begun unseen: %+v", got)
	}
}

// tasks/get, tasks/update and tasks/cancel name their task in Mcp-Name.
func TestTaskMcpName(t *testing.T) {
	hd := func(name string) []httphead.HTTPHeader {
		return []httphead.HTTPHeader{{Name: "Mcp-Method", Value: "tasks/get"}, {Name: "Mcp-Name", Value: name}, {Name: "Mcp-Protocol-Version", Value: mcp.Modern}}
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t1",` + meta + `}}`
	want(t, codesOf(post("http POST 1", hd("t1"), body)...))
	want(t, codesOf(post("http POST 1", hd("t2"), body)...), "1 mcp-name-mismatch")
}

// A message the transport refused for its size: an SSE event (a frame of
// no bytes carrying the reader's error), a WebSocket message (the note of
// the 1009 close mcpscope sent).
func TestRefusedForSize(t *testing.T) {
	event := &capture.Frame{Dir: capture.In, Conn: "http POST 1", Chan: capture.Channel{Kind: capture.Control}, Enc: proto.EncJSON,
		Err: &sse.LimitError{Limit: "event", Max: 20000}}
	want(t, codesOf(event), "1 frame-over-limit")
	note := func(dir capture.Dir, text string) *capture.Frame {
		raw := []byte(text)
		return &capture.Frame{Dir: dir, Conn: "ws", Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Size: len(raw), Enc: proto.EncText,
			Fields: []proto.Field{{Offset: 0, Len: len(raw), Name: "note", Value: text, Kind: proto.FieldHeader}}}
	}
	want(t, codesOf(note(capture.Out, "close 1009 (message too big): message too big")), "1 frame-over-limit")
	want(t, codesOf(note(capture.In, "close 1009 (message too big): the server's words")))
	want(t, codesOf(note(capture.Out, "close 1000 (normal closure): mcpscope is done")))
}

// The outputSchemas kept, over all sessions, stay within one budget.
func TestSchemaBudget(t *testing.T) {
	d := NewDetector()
	big := strings.Repeat("x", 1<<20)
	for s := range 6 {
		conn := fmt.Sprintf("stdio#%d", s)
		for i, text := range []string{
			`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
			`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"w","inputSchema":{"type":"object"},"outputSchema":{"type":"object","description":"` + big + `"}}]}}`,
		} {
			f := line([]capture.Dir{capture.Out, capture.In}[i], text)
			f.Conn = conn
			d.Note(f)
		}
	}
	held := 0
	for s := range d.sessions.values() {
		for tl := range s.tools.values() {
			held += tl.size
		}
	}
	if held == 0 || held > maxSchemaBytes {
		t.Errorf("%d bytes of outputSchemas held, budget %d", held, maxSchemaBytes)
	}
}
