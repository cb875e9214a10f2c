package cli

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/stdio"
)

func decoded(t *testing.T, s string) *jsonrpc.Message {
	t.Helper()
	m, err := jsonrpc.DecodeMessage([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestTraceLine(t *testing.T) {
	at := time.Date(2026, 1, 2, 12, 3, 4, 123_456_789, time.Local)
	req := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{}}`
	cases := []struct {
		f    *capture.Frame
		want string
	}{
		{&capture.Frame{Time: at, Dir: capture.Out, Size: len(req) + 1, Msg: decoded(t, req)},
			"12:03:04.123 → control 59B request tools/call id=2"},
		{&capture.Frame{Time: at, Dir: capture.In, Size: 40, Msg: decoded(t, `{"jsonrpc":"2.0","id":"a","result":{}}`)},
			`12:03:04.123 ← control 40B result id="a"`},
		{&capture.Frame{Time: at, Dir: capture.In, Size: 80, Msg: decoded(t, `{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Unknown\ntool"}}`)},
			"12:03:04.123 ← control 80B error id=3 -32602 Unknown tool"},
		{&capture.Frame{Time: at, Dir: capture.Out, Size: 55, Msg: decoded(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)},
			"12:03:04.123 → control 55B notification notifications/initialized"},
		{&capture.Frame{Time: at, Dir: capture.In, Size: 6, Raw: []byte("Hello\n"), Err: errors.New("not a JSON-RPC message: invalid character 'H'")},
			"12:03:04.123 ← control 6B decode error: not a JSON-RPC message: invalid character 'H'"},
		{&capture.Frame{Time: at, Dir: capture.In, Size: 12, Chan: capture.Channel{Kind: capture.Stderr}, Raw: []byte("server up\t1\n"), Enc: proto.EncText},
			`12:03:04.123 ← stderr 12B "server up\t1"`},
		{&capture.Frame{Time: at, Dir: capture.In, Size: 1024, Chan: capture.Channel{Kind: capture.Stream, ReqID: 42, Tag: 1}, Enc: proto.EncBinary},
			"12:03:04.123 ← stream 42/1 1024B"},
	}
	for _, c := range cases {
		if got := TraceLine(c.f); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

// An HTTP request head's trace line lists the 2026-07-28 headers that
// mirror the body, which its preview cuts off; a response head's does not.
func TestTraceLineNamesMirroredHeaders(t *testing.T) {
	at := time.Date(2026, 1, 2, 12, 3, 4, 0, time.Local)
	headers := []httphead.HTTPHeader{{Name: "Accept", Value: "application/json, text/event-stream"}, {Name: "Mcp-Method", Value: "tools/call"},
		{Name: "Mcp-Name", Value: "route"}, {Name: "Mcp-Param-Region", Value: "eu\x1b[31m"}, {Name: "Mcp-Protocol-Version", Value: "2026-07-28"}}
	raw, fields := httphead.HTTPRequestHead("POST", "/mcp", headers)
	f := &capture.Frame{Time: at, Dir: capture.Out, Size: len(raw), Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Fields: fields, Enc: proto.EncText}
	want := fmt.Sprintf(`12:03:04.000 → http %dB "POST /mcp HTTP/1.1\r\nAccept: application/json, text/event-st…"`, len(raw)) +
		` · Mcp-Method: tools/call · Mcp-Name: route · Mcp-Param-Region: eu\x1b[31m`
	if got := TraceLine(f); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	raw, fields = httphead.HTTPResponseHead("HTTP/1.1", 200, headers)
	f = &capture.Frame{Time: at, Dir: capture.In, Size: len(raw), Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Fields: fields, Enc: proto.EncText}
	if got := TraceLine(f); strings.Contains(got, "·") {
		t.Errorf("a response head lists headers: %s", got)
	}
}

func TestPreviewCutsAndQuotes(t *testing.T) {
	if got := preview([]byte(strings.Repeat("é", 100)+"\n"), 5); got != `"éééé…"` {
		t.Errorf("utf-8: %s", got)
	}
	if got := preview([]byte{0xff, 0xfe, 'a'}, 2); got != `"\xff\xfe"…` {
		t.Errorf("binary: %s", got)
	}
}

func TestTraceSinkWritesWholeLinesConcurrently(t *testing.T) {
	var buf bytes.Buffer
	lw := &lineWriter{w: &buf}
	sink := traceSink{out: lw}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				m := decoded(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, g*100+i))
				sink.Append(&capture.Frame{Time: time.Now(), Msg: m, Size: 10})
			}
		}()
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 200 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, l := range lines {
		if !strings.Contains(l, " → control 10B request ping id=") {
			t.Fatalf("torn line %q", l)
		}
	}
}

func TestDecodeWarningsRateLimited(t *testing.T) {
	var buf bytes.Buffer
	w := &decodeWarnings{warningCap: warningCap{out: &lineWriter{w: &buf}}, unit: "line on stdout"}
	bad := func(s string) *capture.Frame {
		raw := []byte(s + "\n")
		return &capture.Frame{Dir: capture.In, Raw: raw, Size: len(raw), Kept: len(raw),
			Err: &stdio.StdoutLineError{Head: s, Err: errors.New("invalid character")}}
	}
	// Frames that are fine, outgoing, or on stderr never warn.
	w.Append(&capture.Frame{Dir: capture.In, Msg: decoded(t, `{"jsonrpc":"2.0","method":"x"}`)})
	w.Append(&capture.Frame{Dir: capture.Out, Err: errors.New("x")})
	w.Append(&capture.Frame{Dir: capture.In, Chan: capture.Channel{Kind: capture.Stderr}, Err: errors.New("x")})
	if buf.Len() != 0 {
		t.Fatalf("warned about good frames: %q", buf.String())
	}
	for i := range 12 {
		w.Append(bad(fmt.Sprintf("Hello %d from a server that logs to stdout", i)))
	}
	w.Flush()
	w.Flush() // a second flush adds nothing
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != warningLimit+1 {
		t.Fatalf("lines:\n%s", buf.String())
	}
	if want := `warning: the server wrote a non-JSON line on stdout: "Hello 0 from a server that logs to stdo…"`; lines[0] != want {
		t.Errorf("got  %q\nwant %q", lines[0], want)
	}
	if want := "warning: 7 more undecodable frames from the server were not shown"; lines[5] != want {
		t.Errorf("got %q", lines[5])
	}
}

func TestDecodeWarningKinds(t *testing.T) {
	long := &capture.Frame{Dir: capture.In, Raw: []byte(`{"jsonrpc":`), Kept: 11, Size: 20 << 20,
		Err: &stdio.LineTooLongError{Size: 20 << 20, Max: 10 << 20}}
	if got, want := decodeWarning(long, "line on stdout"), "the server wrote a line on stdout of 20971520 bytes, over the 10485760-byte limit (--max-frame-size); it was dropped"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	raw := []byte(`{"jsonrpc":"1.0","id":1}` + "\n")
	notRPC := &capture.Frame{Dir: capture.In, Raw: raw, Kept: len(raw), Size: len(raw),
		Err: &stdio.StdoutLineError{JSON: true, Err: errors.New(`jsonrpc is "1.0", want "2.0"`)}}
	if got, want := decodeWarning(notRPC, "line on stdout"), `the server wrote a line on stdout that is not a JSON-RPC message: "{\"jsonrpc\":\"1.0\",\"id\":1}" (jsonrpc is "1.0", want "2.0")`; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	generic := &capture.Frame{Dir: capture.In, Raw: []byte("\x00\x01"), Kept: 2, Size: 2, Err: errors.New("bad")}
	if got := decodeWarning(generic, ""); !strings.HasPrefix(got, "the server wrote a non-JSON frame: ") {
		t.Errorf("generic: %q", got)
	}
}

func TestFormatProgress(t *testing.T) {
	total := 5.0
	cases := map[string]mcp.ProgressNotificationParams{
		"progress 3/5 step three": {Progress: 3, Total: &total, Message: "step three"},
		"progress 0.25":           {Progress: 0.25},
		"progress 1000000/5":      {Progress: 1e6, Total: &total},
	}
	for want, p := range cases {
		if got := formatProgress(p); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

// Over HTTP a server refuses server/discover with an error whose id is
// null: the trace says it answers the probe; a null-id error on another
// exchange reads as it is.
func TestTraceNamesProbeAnswer(t *testing.T) {
	var buf bytes.Buffer
	tr := newStreamTrace(&lineWriter{w: &buf})
	refusal := `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request"},"id":null}`
	for _, f := range []struct {
		conn string
		dir  capture.Dir
		raw  string
	}{
		{"http POST 1", capture.Out, `{"jsonrpc":"2.0","id":1,"method":"server/discover"}`},
		{"http POST 1", capture.In, refusal},
		{"http POST 2", capture.Out, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`},
		{"http POST 2", capture.In, refusal},
	} {
		tr.Append(&capture.Frame{Time: time.Now(), Conn: f.conn, Dir: f.dir, Msg: decoded(t, f.raw), Size: len(f.raw)})
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 4 || !strings.HasSuffix(lines[1], "error id=null -32000 Bad Request (answers the server/discover probe)") || strings.Contains(lines[3], "probe") {
		t.Errorf("trace:\n%s", buf.String())
	}
}
