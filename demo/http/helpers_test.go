package demohttp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// hangGuard bounds every wait of a test for the server: a guard against a
// hang, never a timed assertion.
const hangGuard = guard.Hang

// testServer is a Handler behind an httptest.Server on 127.0.0.1.
type testServer struct {
	t    *testing.T
	h    *Handler
	core *demo.Server
	url  string // base URL
	tick chan time.Time
}

// startServer serves a fresh demo core with opts; heartbeats tick only
// when the test sends on tick.
func startServer(t *testing.T, opts Options) *testServer {
	t.Helper()
	core, err := demo.New(demo.Options{SandboxRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	h := New(core, opts)
	ts := &testServer{t: t, h: h, core: core, tick: make(chan time.Time)}
	h.newTicker = func(time.Duration) (<-chan time.Time, func()) { return ts.tick, func() {} }
	srv := httptest.NewServer(h)
	ts.url = srv.URL
	t.Cleanup(func() {
		h.Close()
		srv.CloseClientConnections()
		srv.Close()
		_ = core.Close()
	})
	return ts
}

// gate registers a tool that logs "gate open", then waits for release or
// for its call to end; cancelled learns of the latter.
func (ts *testServer) gate(name string) (release chan struct{}, cancelled chan struct{}) {
	release, cancelled = make(chan struct{}), make(chan struct{}, 1)
	err := ts.core.Register(demo.Tool{Name: name, Handler: func(ctx context.Context, c *demo.Call) (*demo.ToolResult, error) {
		_ = c.Emit.Log("info", "gate", "gate open")
		select {
		case <-release:
			return demo.TextResult("gate passed"), nil
		case <-ctx.Done():
			cancelled <- struct{}{}
			return nil, ctx.Err()
		}
	}})
	if err != nil {
		ts.t.Fatal(err)
	}
	return release, cancelled
}

// do sends a request with headers (Accept of Streamable HTTP unless set).
func (ts *testServer) do(method, path, body string, headers map[string]string) *http.Response {
	ts.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	ts.t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, method, ts.url+path, strings.NewReader(body))
	if err != nil {
		ts.t.Fatal(err)
	}
	req.Header.Set("Accept", mediaJSON+", "+mediaSSE)
	if body != "" {
		req.Header.Set("Content-Type", mediaJSON)
	}
	for k, v := range headers {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatalf("%s %s: %v", method, path, err)
	}
	ts.t.Cleanup(func() { _ = resp.Body.Close() })
	return resp
}

// post POSTs body to path.
func (ts *testServer) post(path, body string, headers map[string]string) *http.Response {
	ts.t.Helper()
	return ts.do(http.MethodPost, path, body, headers)
}

// initialize opens a session and returns its id; the answer is read.
func (ts *testServer) initialize() string {
	ts.t.Helper()
	resp := ts.post(PathMCP, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",`+
		`"capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}}}`, nil)
	sid := resp.Header.Get(headerSession)
	if resp.StatusCode != http.StatusOK || sid == "" {
		ts.t.Fatalf("initialize: %s, session %q", resp.Status, sid)
	}
	if m := readEvents(ts.t, resp.Body).message(ts.t); m.Error != nil {
		ts.t.Fatalf("initialize: %+v", m.Error)
	}
	return sid
}

// bodyOf reads a whole body.
func bodyOf(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the body: %v", err)
	}
	return string(b)
}

// rpcErrorOf decodes the JSON-RPC error of a body.
func rpcErrorOf(t *testing.T, resp *http.Response) *jsonrpc.Error {
	t.Helper()
	body := bodyOf(t, resp)
	m, err := jsonrpc.DecodeMessage([]byte(body))
	if err != nil || m.Error == nil {
		t.Fatalf("body %q is no JSON-RPC error: %v", body, err)
	}
	return m.Error
}

// event is one SSE event as a test reads it.
type event struct {
	id, name, retry string
	data            []string // one per data field
	comments        []string // comments before the event
}

// message decodes the event's data as a JSON-RPC message.
func (e event) message(t *testing.T) *jsonrpc.Message {
	t.Helper()
	m, err := jsonrpc.DecodeMessage([]byte(strings.Join(e.data, "\n")))
	if err != nil {
		t.Fatalf("event %+v: %v", e, err)
	}
	return m
}

// events reads SSE events from a body, as far as the test asks.
type events struct {
	r        *bufio.Reader
	comments []string
}

// readEvents reads the SSE events of body.
func readEvents(t *testing.T, body io.Reader) *events {
	return &events{r: bufio.NewReaderSize(body, 1<<20)}
}

// next returns the next event (comments gathered into it), or io.EOF, or
// the read error. Lines end in LF: what this server writes.
func (es *events) next() (event, error) {
	var e event
	seen := false
	for {
		line, err := es.r.ReadString('\n')
		if err != nil {
			if err == io.EOF && line == "" && !seen {
				return e, io.EOF
			}
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return e, err
		}
		line = strings.TrimSuffix(line, "\n")
		if line == "" {
			if seen {
				e.comments, es.comments = es.comments, nil
				return e, nil
			}
			continue
		}
		if strings.HasPrefix(line, ":") {
			es.comments = append(es.comments, strings.TrimPrefix(line, ": "))
			continue
		}
		seen = true
		name, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch name {
		case "id":
			e.id = value
		case "event":
			e.name = value
		case "retry":
			e.retry = value
		case "data":
			e.data = append(e.data, value)
		}
	}
}

// must returns the next event, failing on an error.
func (es *events) must(t *testing.T) event {
	t.Helper()
	e, err := es.next()
	if err != nil {
		t.Fatalf("reading an event: %v", err)
	}
	return e
}

// message skips events without data and returns the next message.
func (es *events) message(t *testing.T) *jsonrpc.Message {
	t.Helper()
	for {
		if e := es.must(t); len(e.data) > 0 && e.data[0] != "" {
			return e.message(t)
		}
	}
}

// end reads to the end of the body and returns the events on the way.
func (es *events) end(t *testing.T) []event {
	t.Helper()
	var all []event
	for {
		e, err := es.next()
		if errors.Is(err, io.EOF) {
			return all
		}
		if err != nil {
			t.Fatalf("reading to the end: %v", err)
		}
		all = append(all, e)
	}
}

// peer is a raw Streamable HTTP client of one session, for wizardtest:
// each POST's stream and the GET stream feed one queue of messages.
type peer struct {
	ts  *testServer
	sid string
	in  chan *jsonrpc.Message
	wg  sync.WaitGroup
}

// newPeer opens a session and its GET stream.
func newPeer(ts *testServer) *peer {
	p := &peer{ts: ts, sid: ts.initialize(), in: make(chan *jsonrpc.Message, 256)}
	resp := ts.do(http.MethodGet, PathMCP, "", map[string]string{headerSession: p.sid, "Accept": mediaSSE})
	if resp.StatusCode != http.StatusOK {
		ts.t.Fatalf("GET stream: %s", resp.Status)
	}
	p.feed(resp.Body)
	return p
}

// feed queues the messages of a stream.
func (p *peer) feed(body io.Reader) {
	p.wg.Go(func() {
		es := readEvents(p.ts.t, body)
		for {
			e, err := es.next()
			if err != nil {
				return
			}
			if len(e.data) > 0 && e.data[0] != "" {
				if m, err := jsonrpc.DecodeMessage([]byte(strings.Join(e.data, "\n"))); err == nil {
					p.in <- m
				}
			}
		}
	})
}

// Send POSTs m; a request's stream feeds the queue.
func (p *peer) Send(m *jsonrpc.Message) {
	b, err := m.EncodeJSON()
	if err != nil {
		p.ts.t.Fatal(err)
	}
	resp := p.ts.post(PathMCP, string(b), map[string]string{headerSession: p.sid, headerVersion: mcp.LatestLegacy})
	switch {
	case m.Kind() == jsonrpc.KindRequest && resp.StatusCode == http.StatusOK:
		p.feed(resp.Body)
	case m.Kind() != jsonrpc.KindRequest && resp.StatusCode == http.StatusAccepted:
	default:
		p.ts.t.Fatalf("POST %s: %s", b, resp.Status)
	}
}

// Next returns the next message of any stream.
func (p *peer) Next() *jsonrpc.Message {
	select {
	case m := <-p.in:
		return m
	case <-time.After(hangGuard):
		p.ts.t.Fatalf("no message from the server within %s", hangGuard)
		return nil
	}
}

// toolCall is the body of a tools/call request.
func toolCall(t *testing.T, id int, name string, args any) string {
	t.Helper()
	m, err := jsonrpc.NewRequest(jsonrpc.IntID(int64(id)), mcp.MethodToolsCall, map[string]any{"name": name, "arguments": args})
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.EncodeJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// decode decodes JSON into a T.
func decode[T any](t *testing.T, raw []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return v
}
