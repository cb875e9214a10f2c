package cli

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/demo"
	demohttp "github.com/mcpscope/mcpscope/demo/http"
	"github.com/mcpscope/mcpscope/internal/testkit/hartest"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// tappedExchange is one request an httpTap served: the body it read and
// the bytes the handler wrote.
type tappedExchange struct {
	method string
	body   []byte
	answer []byte
}

// httpTap serves a handler and logs every exchange as the server saw it.
type httpTap struct {
	h         http.Handler
	mu        sync.Mutex
	exchanges []*tappedExchange
}

func (p *httpTap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	x := &tappedExchange{method: r.Method, body: body}
	p.mu.Lock()
	p.exchanges = append(p.exchanges, x)
	p.mu.Unlock()
	p.h.ServeHTTP(&tapWriter{ResponseWriter: w, tap: p, x: x}, r)
}

// tapWriter logs what a handler writes.
type tapWriter struct {
	http.ResponseWriter
	tap *httpTap
	x   *tappedExchange
}

func (w *tapWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	w.tap.mu.Lock()
	w.x.answer = append(w.x.answer, b[:n]...)
	w.tap.mu.Unlock()
	return n, err
}

// Unwrap lets http.ResponseController flush the writer underneath.
func (w *tapWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// exchangeBytes returns, by connection, the body each exchange of an
// export sent and the body it read (JSON bodies, SSE events and bodies
// that are not JSON-RPC), and how many requests it made.
func exchangeBytes(frames []exportedFrame) (sent, read map[string][]byte, requests int) {
	sent, read = map[string][]byte{}, map[string][]byte{}
	for _, f := range frames {
		first := ""
		if len(f.Annotations) > 0 {
			first = f.Annotations[0].Name
		}
		switch {
		case f.Channel == "http" && f.Dir == "out" && first == "method":
			requests++
		case f.Channel == "control" && f.Dir == "out":
			sent[f.Conn] = append(sent[f.Conn], f.bytes()...)
		case f.Channel == "control" || first == "body" || first == "body (head)":
			read[f.Conn] = append(read[f.Conn], f.bytes()...)
		}
	}
	return sent, read, requests
}

// Over Streamable HTTP, against the demo behind a tap: the body of every
// request the server read is the exported body of one exchange, and what
// the server wrote back (a JSON answer, an SSE stream, nothing) is the
// exported body that exchange read, for stateless JSON answers and for a
// 2025-11-25 session answered with SSE. The HAR of each session is HAR
// 1.2 with one entry per exchange holding the same bodies.
func TestExportHTTPBytesAreTheWire(t *testing.T) {
	t.Parallel()
	core, err := demo.New(demo.Options{SandboxRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = core.Close() })
	for _, flags := range [][]string{nil, {"--protocol", "2025-11-25"}} {
		t.Run(strings.Join(append([]string{"flags"}, flags...), " "), func(t *testing.T) {
			h := demohttp.New(core, demohttp.Options{})
			tap := &httpTap{h: h}
			srv := httptest.NewServer(tap)
			rec := filepath.Join(t.TempDir(), "rec.jsonl")
			args := append([]string{"call", "--trace", "--record", rec}, flags...)
			r := mcpscope(t, append(args, "tools/call", callTool(t, "echo", map[string]any{"message": "héllo ✓"}), srv.URL+demohttp.PathMCP)...)
			r.mustExit(t, ExitOK)
			h.Close()
			srv.Close() // its handlers have returned: the tap is whole

			sent, read, requests := exchangeBytes(exportFrames(t, rec))
			if requests != len(tap.exchanges) {
				t.Errorf("%d requests exported, the server served %d", requests, len(tap.exchanges))
			}
			byBody := map[string]string{}
			for conn, body := range sent {
				byBody[string(body)] = conn
			}
			sse := false
			for i, x := range tap.exchanges {
				if len(x.body) == 0 {
					continue // GET and DELETE
				}
				conn, ok := byBody[string(x.body)]
				if !ok {
					t.Fatalf("exchange %d: no exported exchange sent the body the server read: %s", i, x.body)
				}
				if !bytes.Equal(read[conn], x.answer) {
					t.Errorf("%s: exported body %q, the server wrote %q", conn, read[conn], x.answer)
				}
				sse = sse || bytes.HasPrefix(x.answer, []byte("id: "))
			}
			if sse != (flags != nil) {
				t.Errorf("SSE answers: %v", sse)
			}
			checkTextIsTrace(t, r.stderr, rec)
			checkHARBodies(t, rec, tap.exchanges)
		})
	}
}

// checkHARBodies exports the recording at path as HAR, checks it is HAR
// 1.2 and that its entries hold the bodies of the exchanges as served.
func checkHARBodies(t *testing.T, path string, served []*tappedExchange) {
	t.Helper()
	log := exportHAR(t, path)
	if len(log.Entries) != len(served) {
		t.Fatalf("%d HAR entries, %d exchanges served", len(log.Entries), len(served))
	}
	for _, x := range served {
		found := false
		for _, e := range log.Entries {
			if e.Request.Method != x.method || (e.Request.PostData == nil) != (len(x.body) == 0) ||
				e.Request.PostData != nil && e.Request.PostData.Text != string(x.body) {
				continue
			}
			body, _ := e.Body()
			if found = bytes.Equal(body, x.answer) || x.method == http.MethodGet && bytes.HasPrefix(x.answer, body); found {
				break
			}
		}
		if !found {
			t.Errorf("no HAR entry holds the %s exchange %q → %q", x.method, x.body, x.answer)
		}
	}
}

// exportHAR exports the recording at path as HAR and checks it is HAR 1.2.
func exportHAR(t *testing.T, path string) *hartest.Log {
	t.Helper()
	r := exportCmd(t, nil, "--format", "har", path)
	r.mustExit(t, ExitOK)
	log, err := hartest.Check([]byte(r.stdout))
	if err != nil {
		t.Fatalf("not HAR 1.2: %v\n%s", err, r.stdout)
	}
	if log.Creator.Name != "mcpscope" || log.Creator.Version != Version() {
		t.Errorf("creator %+v", log.Creator)
	}
	return log
}

// A session with the TypeScript reference server over Streamable HTTP
// exports as HAR 1.2: the probe refused with 400 and a JSON body, the
// initialize and the call answered with SSE (events as text/event-stream
// text), the session's GET stream and its DELETE, each with headers and
// the body sent.
func TestExportHARTSReference(t *testing.T) {
	t.Parallel()
	url := peertest.StartTSStreamableHTTP(t).URL
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	r := mcpscope(t, "call", "--record", rec, "tools/call", callTool(t, "echo", map[string]any{"message": "héllo"}), url)
	r.mustExit(t, ExitOK)
	log := exportHAR(t, rec)
	seen := map[string]bool{}
	for _, e := range log.Entries {
		post := ""
		if e.Request.PostData != nil {
			post = e.Request.PostData.Text
		}
		body, _ := e.Body()
		switch {
		case strings.Contains(post, `"method":"server/discover"`):
			seen["discover"] = e.Response.Status == 400 && strings.Contains(string(body), "Server not initialized")
		case strings.Contains(post, `"method":"initialize"`):
			seen["initialize"] = e.Response.Status == 200 && e.Response.Content.MimeType == "text/event-stream" &&
				strings.Contains(string(body), "event: message\n") && hartest.Header(e.Response.Headers, "Mcp-Session-Id") != "" &&
				e.SSE != nil && e.SSE.Kind == "answer" && e.SSE.State == "done"
		case strings.Contains(post, `"method":"tools/call"`):
			seen["call"] = e.Response.Status == 200 && strings.Contains(string(body), `Echo: héllo`) &&
				hartest.Header(e.Request.Headers, "Content-Type") == "application/json" && e.Request.URL == url
		case e.Request.Method == http.MethodGet:
			seen["get"] = e.Response.Status == 200 && e.SSE != nil && e.SSE.Kind == "get"
		case e.Request.Method == http.MethodDelete:
			seen["delete"] = e.Response.Status == 200
		}
	}
	for _, want := range []string{"discover", "initialize", "call", "get", "delete"} {
		if !seen[want] {
			t.Errorf("the HAR lacks the %s exchange as the server answered it (seen %v):\n%s", want, seen, exportCmd(t, nil, "--format", "har", rec).stdout)
		}
	}
}
