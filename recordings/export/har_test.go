package export

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/hartest"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/recordings"
)

// httpSession records an HTTP session as mcpscope's HTTP transport
// captures one: request and response heads on the HTTP channel, bodies and
// SSE events on the control channel, notes; times in milliseconds after at.
type httpSession struct {
	t testing.TB
	w *recordings.Writer
}

func (s httpSession) stamp(f *capture.Frame, conn string, dir capture.Dir, ms int) {
	f.Time, f.Conn, f.Dir = at.Add(time.Duration(ms)*time.Millisecond), conn, dir
	if f.Size == 0 {
		f.Size = len(f.Raw)
	}
	s.w.Append(f)
}

func (s httpSession) request(conn, method, target string, ms int, headers ...httphead.HTTPHeader) {
	raw, fields := httphead.HTTPRequestHead(method, target, append([]httphead.HTTPHeader{{Name: "Host", Value: "127.0.0.1:3000"}}, headers...))
	s.stamp(&capture.Frame{Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Fields: fields, Enc: proto.EncText}, conn, capture.Out, ms)
}

func (s httpSession) response(conn string, status int, contentType string, ms int) {
	raw, fields := httphead.HTTPResponseHead("HTTP/1.1", status, []httphead.HTTPHeader{{Name: "Content-Type", Value: contentType}})
	s.stamp(&capture.Frame{Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Fields: fields, Enc: proto.EncText}, conn, capture.In, ms)
}

func (s httpSession) body(conn string, dir capture.Dir, body string, ms int) {
	s.stamp(control(s.t, dir, conn, body, "", ms), conn, dir, ms)
}

func (s httpSession) http(conn, name string, raw []byte, ms int) {
	s.stamp(&capture.Frame{Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Enc: proto.EncText,
		Fields: []proto.Field{{Offset: 0, Len: len(raw), Name: name, Kind: proto.FieldBody}}}, conn, capture.In, ms)
}

const (
	initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`
	priming  = "id: 1-0\nretry: 1000\ndata:\n\n"
	answer   = "id: 1-1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-11-25\"}}\n\n"
	callBody = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"héllo"}}}`
	callJSON = `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"héllo"}]}}`
)

// httpRecording is a session of five exchanges: initialize answered with
// SSE (a priming event, then the answer; the stream ends 20 ms after the
// start), a notification accepted with 202, a GET stream refused before
// any response, a call answered with JSON (its request started before the
// notification's, though recorded after) and a DELETE answered 500 with a
// body that is not UTF-8.
func httpRecording(t testing.TB) []byte {
	rec := record(t, "http", func(w *recordings.Writer) {
		s := httpSession{t, w}
		json := httphead.HTTPHeader{Name: "Content-Type", Value: "application/json"}
		s.request("http POST 1", "POST", "/mcp?x=1&y=a%20b", 0, json, httphead.HTTPHeader{Name: "Accept", Value: "application/json, text/event-stream"})
		s.body("http POST 1", capture.Out, initBody, 1)
		s.response("http POST 1", 200, "text/event-stream", 10)
		w.OpenSSE("http POST 1", capture.SSEStart{Kind: capture.SSEAnswer, Method: "initialize", ReqID: "1"})
		s.stamp(&capture.Frame{Chan: capture.Channel{Kind: capture.Control}, Raw: []byte(priming), Fields: httphead.SSEEventFields([]byte(priming)), Enc: proto.EncText}, "http POST 1", capture.In, 11)
		w.SSEEvent("http POST 1", 0, int64(len(priming)), "1-0")
		s.body("http POST 1", capture.In, answer, 15)
		w.SSEEvent("http POST 1", 0, int64(len(answer)), "1-1")
		w.EndSSE("http POST 1", capture.SSEDone, "")

		s.request("http POST 2", "POST", "/mcp", 30, json)
		s.body("http POST 2", capture.Out, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 31)
		s.request("http GET 3", "GET", "/mcp", 32)
		s.request("http POST 4", "POST", "/mcp", 25, json)
		s.body("http POST 4", capture.Out, callBody, 26)
		s.response("http POST 2", 202, "", 35)
		s.response("http POST 4", 200, "application/json", 40)
		s.body("http POST 4", capture.In, callJSON, 41)
		raw := []byte("connection refused \x1b[2J\u009b\u202e")
		s.stamp(&capture.Frame{Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Enc: proto.EncText,
			Fields: []proto.Field{{Offset: 0, Len: len(raw), Name: "note", Value: string(raw)}}}, "http GET 3", capture.In, 50)

		s.request("http DELETE 5", "DELETE", "/mcp", 60)
		s.response("http DELETE 5", 500, "application/octet-stream", 61)
		s.http("http DELETE 5", "body", []byte{0xff, 0x00, 'x'}, 62)
	})
	// The writer stamps the end of an SSE stream with the clock: set it.
	end := regexp.MustCompile(`"k":"sse_end","t":\d+`)
	return end.ReplaceAll(rec, []byte(fmt.Sprintf(`"k":"sse_end","t":%d`, at.Add(20*time.Millisecond).UnixNano())))
}

// writeHAR exports a recording as HAR and checks it against HAR 1.2.
func writeHAR(t *testing.T, rec []byte) (*hartest.Log, HARResult) {
	t.Helper()
	var out bytes.Buffer
	res, err := WriteHAR(&out, reader(t, rec), "9.9")
	if err != nil {
		t.Fatal(err)
	}
	log, err := hartest.Check(out.Bytes())
	if err != nil {
		t.Fatalf("not HAR 1.2: %v\n%s", err, out.Bytes())
	}
	if bytes.ContainsAny(out.Bytes(), "\x1b\u009b\u202e") {
		t.Errorf("the HAR holds what a terminal acts on, unescaped:\n%s", out.Bytes())
	}
	return log, res
}

// Every exchange is an entry, in the order the requests started: method,
// absolute URL and query, headers, the body sent, status and headers
// received, the body as read (an SSE answer's events as text/event-stream
// text, a body that is not UTF-8 in base64), timings from the frames'
// times, a request without response as status 0 with its note.
func TestHARExchanges(t *testing.T) {
	log, res := writeHAR(t, httpRecording(t))
	if log.Creator.Name != "mcpscope" || log.Creator.Version != "9.9" || !strings.Contains(log.Comment, "recorded by mcpscope test from http://127.0.0.1:3000/mcp over http") {
		t.Errorf("log: %+v", log)
	}
	if len(log.Entries) != 5 || res.Entries != 5 || len(res.Warnings) != 0 {
		t.Fatalf("%d entries, %+v", len(log.Entries), res)
	}
	var conns []string
	for _, e := range log.Entries {
		conns = append(conns, e.Conn)
	}
	if got := strings.Join(conns, ","); got != "http POST 1,http POST 4,http POST 2,http GET 3,http DELETE 5" {
		t.Errorf("entries in the order %s", got)
	}

	init := log.Entries[0]
	if init.Request.Method != "POST" || init.Request.URL != "http://127.0.0.1:3000/mcp?x=1&y=a%20b" ||
		len(init.Request.QueryString) != 2 || init.Request.QueryString[1] != (hartest.NV{Name: "y", Value: "a b"}) {
		t.Errorf("initialize request: %+v", init.Request)
	}
	if p := init.Request.PostData; p == nil || p.Text != initBody || p.MimeType != "application/json" || init.Request.BodySize != int64(len(initBody)) {
		t.Errorf("initialize postData: %+v", p)
	}
	if hartest.Header(init.Request.Headers, "Accept") != "application/json, text/event-stream" {
		t.Errorf("request headers %+v", init.Request.Headers)
	}
	body, _ := init.Body()
	c := init.Response.Content
	if init.Response.Status != 200 || c.MimeType != "text/event-stream" || string(body) != priming+answer || c.Size != int64(len(priming+answer)) {
		t.Errorf("initialize response: %+v %q", init.Response, body)
	}
	if init.SSE == nil || init.SSE.Kind != "answer" || init.SSE.State != "done" || init.SSE.Events != 2 {
		t.Errorf("_sse %+v", init.SSE)
	}
	if tm := init.Timings; tm["send"] != 1 || tm["wait"] != 9 || tm["receive"] != 10 || init.Time != 20 || tm["connect"] != -1 {
		t.Errorf("timings %v, time %v", tm, init.Time)
	}

	call := log.Entries[1]
	if body, _ := call.Body(); string(body) != callJSON || call.Response.Content.MimeType != "application/json" || call.Request.PostData.Text != callBody {
		t.Errorf("call: %q %+v", body, call)
	}
	if n := log.Entries[2]; n.Response.Status != 202 || n.Response.Content.Text != nil || n.Response.Content.Size != 0 {
		t.Errorf("notification: %+v", n.Response)
	}
	if g := log.Entries[3]; g.Response.Status != 0 || g.Comment != "connection refused \x1b[2J\u009b\u202e" || g.Request.PostData != nil || g.Time != 18 {
		t.Errorf("refused GET: %+v", g)
	}
	del := log.Entries[4]
	if body, err := del.Body(); err != nil || !bytes.Equal(body, []byte{0xff, 0x00, 'x'}) || del.Response.Content.Encoding != "base64" || del.Response.Status != 500 {
		t.Errorf("DELETE: %q %v %+v", body, err, del.Response)
	}
}

// A recording of a session over another transport is refused before
// anything is written.
func TestHARRefusesOtherTransports(t *testing.T) {
	for _, transport := range []string{"stdio", "wt", "ws", ""} {
		var out bytes.Buffer
		_, err := WriteHAR(&out, reader(t, record(t, transport, func(*recordings.Writer) {})), "1")
		var nh *NotHTTPError
		if !errors.As(err, &nh) || nh.Transport != transport || out.Len() != 0 || !strings.Contains(err.Error(), "--format jsonl") {
			t.Errorf("%q: %v, wrote %d bytes", transport, err, out.Len())
		}
	}
}

// Past its budget a HAR cuts bodies and leaves exchanges out, and says so;
// what it writes is still HAR 1.2.
func TestHARBounds(t *testing.T) {
	r := reader(t, httpRecording(t))
	b := newHARBuilder()
	b.budget = 190 // the first head and part of the body
	if _, err := recordings.Walk(r, b.record); err != nil {
		t.Fatal(err)
	}
	if len(b.entries) != 1 || b.left != 4 || b.cut != 1 || b.stray == 0 {
		t.Fatalf("%d entries, %d left, %d cut, %d stray", len(b.entries), b.left, b.cut, b.stray)
	}
	w := b.warnings()
	if len(w) != 3 || !strings.Contains(w[0], "4 exchanges past the first 1") || !strings.Contains(w[1], "1 body is cut short") {
		t.Errorf("warnings %q", w)
	}
	var out bytes.Buffer
	if err := b.write(&out, recordings.Header{Transport: "http", Target: "http://h/mcp"}, "1", w); err != nil {
		t.Fatal(err)
	}
	log, err := hartest.Check(out.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, out.Bytes())
	}
	if e := log.Entries[0]; e.Request.PostData == nil || len(e.Request.PostData.Text) >= len(initBody) || !strings.Contains(log.Comment, "left out") {
		t.Errorf("%+v %q", e.Request.PostData, log.Comment)
	}
}
