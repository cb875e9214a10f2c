package export

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/hartest"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/recordings"
)

// FuzzExport reads any bytes after a recording's header line as its
// records and exports them as JSON Lines and as HAR: nothing panics, every
// JSON Lines line is JSON holding the frame's bytes exactly once, and the
// HAR is HAR 1.2.
func FuzzExport(f *testing.F) {
	f.Add(httpRecording(f))
	f.Add([]byte(`{"format":"mcpscope-recording","version":1,"transport":"http"}` + "\n" +
		`{"k":"frame","t":5,"dir":"out","conn":"c","ch":"http","text":"GET / HTTP/1.1\r\nHost: h\r\n\r\n"}` + "\n" +
		`{"k":"frame","t":1,"dir":"in","conn":"c","ch":"http","text":"HTTP/1.1 200 OK\r\n\r\n"}` + "\n" +
		`{"k":"frame","t":2,"dir":"in","conn":"c","ch":"control","b64":"/w=="}` + "\n{\"k\":\"sse_end"))
	f.Add([]byte(`{"format":"mcpscope-recording","version":1,"transport":"sse"}` + "\n" +
		`{"k":"frame","dir":"out","conn":"c","ch":"http","text":"POST h t p://x y HTTP/9\r\nHost: a b\r\n\r\n","fields":[{"o":0,"n":1,"f":"method"}]}` + "\n" +
		`{"k":"sse_open","conn":"c","kind":"answer"}` + "\n" + `{"k":"sse_event","conn":"c"}` + "\n" + "garbage\n"))
	f.Fuzz(func(t *testing.T, rec []byte) {
		rec = withHeader(rec)
		var out bytes.Buffer
		_, err := WriteJSONL(&out, reader(t, rec))
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n"))
		for _, l := range lines {
			var e exported
			if err := json.Unmarshal(l, &e.jsonFrame); err != nil {
				t.Fatalf("line %q: %v", l, err)
			}
			if e.Kind == KindFrame {
				e.bytes(t)
			}
		}
		out.Reset()
		_, err = WriteHAR(&out, reader(t, rec), "1")
		var notHTTP *NotHTTPError
		if errors.As(err, &notHTTP) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := hartest.Check(out.Bytes()); err != nil {
			t.Fatalf("%v\n%s", err, out.Bytes())
		}
	})
}

// withHeader puts an HTTP recording's header line before rec, unless rec
// starts with a header of its own.
func withHeader(rec []byte) []byte {
	if _, err := recordings.NewReader(bytes.NewReader(rec)); err == nil {
		return rec
	}
	return append([]byte(`{"format":"mcpscope-recording","version":1,"target":"http://127.0.0.1:1/mcp","transport":"http"}`+"\n"), rec...)
}

// FuzzHTTPHeadReadBack renders request and response heads as mcpscope
// captures them and reads them back: the same method, target, status and
// headers.
func FuzzHTTPHeadReadBack(f *testing.F) {
	f.Add("POST", "/mcp?a=b", "Content-Type", "application/json", 200)
	f.Add("GET", "/a b", "X: y", " spaced ", 999)
	f.Fuzz(func(t *testing.T, method, target, name, value string, status int) {
		headers := []httphead.HTTPHeader{{Name: name, Value: value}}
		raw, _ := httphead.HTTPRequestHead(method, target, headers)
		h, ok := parseRequestHead(raw)
		clean := func(s string) string {
			b := []byte(s)
			for i, c := range b {
				if c == '\r' || c == '\n' || c == 0 {
					b[i] = ' '
				}
			}
			return string(b)
		}
		if m := clean(method); m != "" && !bytes.ContainsRune([]byte(m), ' ') {
			if !ok || h.method != clean(method) || h.target != clean(target) || h.version != "HTTP/1.1" {
				t.Fatalf("request %q read back as %+v (%v)", raw, h, ok)
			}
			if safeHeader(name) && (len(h.headers) != 1 || h.headers[0] != (httphead.HTTPHeader{Name: clean(name), Value: clean(value)})) {
				t.Fatalf("headers %+v, want %s: %s", h.headers, name, value)
			}
		}
		raw, _ = httphead.HTTPResponseHead("HTTP/1.1", status, headers)
		r, ok := parseResponseHead(raw)
		if status >= 0 && status <= 999 && (!ok || r.status != status || r.version != "HTTP/1.1") {
			t.Fatalf("response %q read back as %+v (%v)", raw, r, ok)
		}
	})
}

// safeHeader says a header name reads back as itself: no colon, no line
// break, not empty.
func safeHeader(name string) bool {
	return name != "" && !bytes.ContainsAny([]byte(name), ":\r\n\x00")
}
