package findings

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// line is a stdio line frame as the stdio transport captures it: its
// message decoded, or its decode error.
func line(dir capture.Dir, text string) *capture.Frame {
	raw := []byte(text + "\n")
	f := &capture.Frame{Dir: dir, Conn: "stdio", Raw: raw, Size: len(raw), Fields: jsonrpc.LineFields(raw), Enc: proto.EncJSON}
	msgs, batch, err := jsonrpc.DecodeJSON([]byte(text))
	switch {
	case err != nil:
		f.Err = err
	case !batch:
		f.Msg = msgs[0]
		f.Err = jsonrpc.CheckText([]byte(text))
	}
	return f
}

// codesOf runs frames through a detector and lists the codes found, with
// the frame each came on: "2 stdout-not-json".
func codesOf(frames ...*capture.Frame) []string {
	d := NewDetector()
	var out []string
	for i, f := range frames {
		f.Seq = uint64(i + 1)
		for _, x := range d.Note(f) {
			out = append(out, fmt.Sprintf("%d %s", x.Seq, x.Code))
		}
	}
	return out
}

func want(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("findings %q, want %q", got, want)
	}
}

func TestStdoutLines(t *testing.T) {
	want(t, codesOf(line(capture.In, "starting server...")), "1 stdout-not-json")
	want(t, codesOf(line(capture.In, `{"hello":1}`)), "1 stdout-not-jsonrpc")
	want(t, codesOf(line(capture.In, "\ufeff{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}")), "1 byte-order-mark")
	want(t, codesOf(line(capture.In, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/\xff\"}")), "1 invalid-utf8")
}

func TestLineOverLimit(t *testing.T) {
	head := []byte(`{"jsonrpc":"2.0","id":1,"result":{"x":"aaaa`)
	f := &capture.Frame{Dir: capture.In, Conn: "stdio", Raw: head, Kept: len(head), Size: 5000, Enc: proto.EncJSON,
		Fields: []proto.Field{{Offset: 0, Len: len(head), Name: "body (head)", Kind: proto.FieldBody}}, Err: errors.New("server wrote a line of 5000 bytes")}
	want(t, codesOf(f), "1 frame-over-limit")
}

func TestAnswers(t *testing.T) {
	want(t, codesOf(
		line(capture.Out, `{"jsonrpc":"2.0","id":1,"method":"ping"}`),
		line(capture.In, `{"jsonrpc":"2.0","id":1,"result":{}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":1,"result":{}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":7,"result":{}}`),
		line(capture.Out, `{"jsonrpc":"2.0","id":"s1","result":{}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":"s2","method":"ping"}`),
		line(capture.Out, `{"jsonrpc":"2.0","id":"s2","result":{}}`),
	), "3 answer-duplicate", "4 answer-unknown-id", "5 answer-unknown-id")
}

// structuredContent must be a JSON object, whatever the tool declares.
func TestStructuredContentNotObject(t *testing.T) {
	want(t, codesOf(
		line(capture.Out, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"w"}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":[1,2]}}`),
		line(capture.Out, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"w"}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":null}}`),
		line(capture.Out, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"w"}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":3,"result":{"content":[],"structuredContent":{"a":1}}}`),
	), "2 structured-content-not-object", "4 structured-content-not-object")
}

const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`

func TestModernResults(t *testing.T) {
	got := codesOf(
		line(capture.Out, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+meta+`}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":[{"name":"w","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"t":{"type":"number"}},"required":["t"]}}]}}`),
		line(capture.Out, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"w",`+meta+`}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":{"t":"hot"}}}`),
		line(capture.Out, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"w",`+meta+`}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[]}}`),
		line(capture.In, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`),
	)
	want(t, got, "4 result-type-missing", "4 structured-content-invalid", "6 structured-content-missing", "7 deprecated-logging")
}

func TestStructuredSpan(t *testing.T) {
	d := NewDetector()
	d.Note(line(capture.Out, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	d.Note(line(capture.In, `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"w","outputSchema":{"type":"object","required":["t"]}}]}}`))
	d.Note(line(capture.Out, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"w"}}`))
	f := line(capture.In, `{"jsonrpc":"2.0","id":2,"result":{"structuredContent":{"u":1}}}`)
	got := d.Note(f)
	if len(got) != 1 || got[0].Path != "result.structuredContent" {
		t.Fatalf("findings %+v", got)
	}
	if span := string(f.Raw[got[0].Offset : got[0].Offset+got[0].Length]); !strings.Contains(span, `{"u":1}`) {
		t.Errorf("the finding's bytes are %q", span)
	}
}

func TestParamHeaders(t *testing.T) {
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta + `}}`
	answer := `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":[{"name":"w","inputSchema":{"type":"object","properties":{"r":{"type":"object","x-mcp-header":"Region"}}}}]}}`
	frames := post("http POST 1", []httphead.HTTPHeader{{Name: "Mcp-Method", Value: "tools/list"}, {Name: "Mcp-Protocol-Version", Value: "2026-07-28"}}, list)
	in := line(capture.In, answer)
	in.Conn = "http POST 1"
	want(t, codesOf(append(frames, in)...), "3 x-mcp-header-invalid")
	// Over stdio the annotations become no header: no finding.
	want(t, codesOf(line(capture.Out, list), line(capture.In, answer)))
}

// post is the head and body of a POST as the HTTP transport captures
// them.
func post(conn string, headers []httphead.HTTPHeader, body string) []*capture.Frame {
	raw, fields := httphead.HTTPRequestHead("POST", "/mcp", headers)
	h := &capture.Frame{Dir: capture.Out, Conn: conn, Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Size: len(raw), Fields: fields, Enc: proto.EncText}
	msgs, _, _ := jsonrpc.DecodeJSON([]byte(body))
	b := &capture.Frame{Dir: capture.Out, Conn: conn, Raw: []byte(body), Size: len(body), Enc: proto.EncJSON, Msg: msgs[0],
		Fields: []proto.Field{{Offset: 0, Len: len(body), Name: "body", Kind: proto.FieldBody}}}
	return []*capture.Frame{h, b}
}

func TestMcpHeaders(t *testing.T) {
	hd := func(method, name string) []httphead.HTTPHeader {
		return []httphead.HTTPHeader{{Name: "Mcp-Method", Value: method}, {Name: "Mcp-Name", Value: name}, {Name: "Mcp-Protocol-Version", Value: "2026-07-28"}}
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo",` + meta + `}}`
	frames := append(post("http POST 1", hd("tools/call", "echo"), body), post("http POST 2", hd("tools/list", "=?base64?ZWNobw==?="), strings.Replace(body, `"id":1`, `"id":2`, 1))...)
	frames = append(frames, post("http POST 3", hd("tools/call", "other"), strings.Replace(body, `"id":1`, `"id":3`, 1))...)
	d := NewDetector()
	var got []string
	for i, f := range frames {
		f.Seq = uint64(i + 1)
		for _, x := range d.Note(f) {
			got = append(got, fmt.Sprintf("%d %s", x.Seq, x.Code))
			if line := string(f.Raw); x.Seq == f.Seq {
				t.Errorf("finding %s on the body, not the head: %s", x.Code, line)
			}
			if x.Length == 0 {
				t.Errorf("finding %s names no bytes of the head", x.Code)
			}
		}
	}
	want(t, got, "3 mcp-method-mismatch", "5 mcp-name-mismatch")
}

func TestFlowPrefix(t *testing.T) {
	raw := binary.BigEndian.AppendUint32(nil, 100)
	raw = append(raw, `{"jsonrpc"`...)
	f := &capture.Frame{Dir: capture.In, Conn: "wt", Raw: raw, Size: len(raw), Enc: proto.EncJSON,
		Fields: []proto.Field{proto.UintField(0, 4, "length", 100), {Offset: 4, Len: len(raw) - 4, Name: "body", Kind: proto.FieldBody}},
		Err:    errors.New("control frame body ended after 10 of 100 bytes")}
	want(t, codesOf(f), "1 length-prefix-past-body")
	big := &capture.Frame{Dir: capture.In, Conn: "wt", Raw: raw[:4], Size: 4, Enc: proto.EncJSON,
		Fields: []proto.Field{proto.UintField(0, 4, "length", 100)}, Err: &flow.FrameTooLargeError{Size: 100, Max: 50}}
	want(t, codesOf(big), "1 length-prefix-over-max")
}

func TestIndexGap(t *testing.T) {
	f := &capture.Frame{Dir: capture.In, Conn: "gw", Chan: capture.Channel{Kind: capture.Stream}, Raw: make([]byte, 30), Size: 30, Enc: proto.EncBinary,
		Fields: []proto.Field{{Offset: 16, Len: 8, Name: "index", Kind: proto.FieldHeader}}, Err: &gateway.IndexGapError{Index: 3, Next: 1}}
	d := NewDetector()
	got := d.Note(f)
	if len(got) != 1 || got[0].Code != CodeStreamIndexGap || got[0].Offset != 16 || got[0].Length != 8 {
		t.Errorf("findings %+v", got)
	}
}

func TestLegacySSE(t *testing.T) {
	raw := []byte("event: endpoint\ndata: /messages?s=1\n\n")
	f := &capture.Frame{Dir: capture.In, Conn: "sse GET 1", Raw: raw, Size: len(raw), Fields: httphead.SSEEventFields(raw), Enc: proto.EncText}
	want(t, codesOf(f), "1 deprecated-http-sse")
}

// TestBounded: a flood of requests never answered keeps the detector's
// memory within its bounds, and answers to forgotten requests are not
// reported.
func TestBounded(t *testing.T) {
	d := NewDetector()
	for i := range maxPending + 10 {
		d.Note(line(capture.Out, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i)))
	}
	if got := d.Note(line(capture.In, `{"jsonrpc":"2.0","id":0,"result":{}}`)); len(got) != 0 {
		t.Errorf("an answer to a forgotten request: %+v", got)
	}
	for i := range 100 {
		d.Note(&capture.Frame{Conn: fmt.Sprintf("c%d", i)})
	}
	s, _ := d.sessions.get("stdio")
	if len(d.sessions.m) > maxSessions || (s != nil && len(s.pending.m) > maxPending) {
		t.Errorf("%d sessions held", len(d.sessions.m))
	}
}

func TestHTTPBodyNotJSONRPC(t *testing.T) {
	frames := post("http POST 1", nil, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	body := []byte(`<html>oops</html>`)
	_, _, err := jsonrpc.DecodeJSON(body)
	frames = append(frames, &capture.Frame{Dir: capture.In, Conn: "http POST 1", Raw: body, Size: len(body), Enc: proto.EncJSON,
		Fields: []proto.Field{{Offset: 0, Len: len(body), Name: "body", Kind: proto.FieldBody}}, Err: err})
	want(t, codesOf(frames...), "3 body-not-jsonrpc")
}

// A deprecated feature is reported once a session, where it is first
// used: logging, and roots asked for in an input_required result.
func TestDeprecatedOnceASession(t *testing.T) {
	note := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`
	got := codesOf(
		line(capture.Out, `{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{`+meta+`}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":0,"result":{"resultType":"complete"}}`),
		line(capture.Out, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"w",`+meta+`}}`),
		line(capture.In, note),
		line(capture.In, note),
		line(capture.In, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list"},"b":{"method":"roots/list"}}}}`),
	)
	want(t, got, "4 deprecated-logging", "6 deprecated-roots")
	// Before 2026-07-28, logging is no deprecated feature.
	want(t, codesOf(line(capture.Out, `{"jsonrpc":"2.0","id":1,"method":"ping"}`), line(capture.In, note)))
}

// A server that answers the server/discover probe and then agrees
// 2025-11-25 through initialize speaks 2025-11-25: roots asked for then
// are no deprecated feature.
func TestAnsweredProbeThenInitializeIsNoModernSession(t *testing.T) {
	want(t, codesOf(
		line(capture.Out, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+meta+`}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2025-11-25"],"capabilities":{}}}`),
		line(capture.Out, `{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":"r","method":"roots/list"}`),
	))
}

// A 2026-07-28 probe the server refuses leaves the session in its
// earlier era: roots asked for then are no deprecated feature.
func TestRefusedProbeIsNoModernSession(t *testing.T) {
	want(t, codesOf(
		line(capture.Out, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+meta+`}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":"r","method":"roots/list"}`),
	))
}

// A length prefix that declares fewer bytes than its message holds cuts
// the message short: the frame read (as flow.ParseControlFrame reads it)
// is the start of a JSON or CBOR item that ends early, and is named for
// the prefix; a body that is whole but no JSON-RPC is not.
func TestFlowShortPrefix(t *testing.T) {
	msg := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}`
	cborMsg, err := cbor.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/message"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		enc  proto.Encoding
		body []byte
		cut  int
		want string
	}{
		{"json", proto.EncJSON, []byte(msg), 20, "1 length-prefix-short"},
		{"cbor", proto.EncCBOR, cborMsg, 9, "1 length-prefix-short"},
		{"whole json that is no message", proto.EncJSON, []byte(`{"hello":1}`), 11, "1 message-not-jsonrpc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stream := binary.BigEndian.AppendUint32(nil, uint32(tc.cut))
			stream = append(stream, tc.body...)
			frame, body, fields, err := flow.ParseControlFrame(stream, 1<<20)
			if err != nil || len(body) != tc.cut {
				t.Fatalf("parse: %d bytes of body, %v", len(body), err)
			}
			f := &capture.Frame{Dir: capture.In, Conn: "wt", Raw: frame, Size: len(frame), Enc: tc.enc, Fields: fields,
				Err: errors.New("the body is not a JSON-RPC message")}
			want(t, codesOf(f), tc.want)
		})
	}
}
