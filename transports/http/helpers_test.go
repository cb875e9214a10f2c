package mcphttp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// hangGuard bounds every wait in these tests; it only fires on a hang.
const hangGuard = guard.Hang

// seen is one HTTP request the fake server received.
type seen struct {
	Method string // the HTTP method
	Path   string // path and query
	Header http.Header
	Body   []byte
	Msg    *jsonrpc.Message // what a POST carried, when it decodes
}

// handler answers one request of the fake; m is the message a POST
// carried (nil for GET and DELETE).
type handler func(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message)

// fake is a scripted MCP server over HTTP: every request is recorded, and
// answered by the handler of its JSON-RPC method (or of "GET", "DELETE",
// "response", "broken" for a body that does not decode whole) or else by the defaults: initialize opens session s-N,
// notifications and responses are accepted with 202, GET is refused with
// 405, DELETE is answered 200 and any other request gets {"ok":true}. A
// POST naming an expired session is answered 404.
type fake struct {
	t    testing.TB
	srv  *httptest.Server
	stop chan struct{} // closed when the test ends: handlers that hold a request let go

	mu      sync.Mutex
	seen    []seen
	routes  map[string]handler
	expired map[string]bool
	inits   int
	changed chan struct{}
}

// newFake starts a fake server on 127.0.0.1 for the test.
func newFake(t testing.TB) *fake {
	return newFakeServer(t, httptest.NewServer)
}

// newFakeServer starts a fake server with start (httptest.NewServer,
// NewTLSServer or an HTTP/2 starter).
func newFakeServer(t testing.TB, start func(http.Handler) *httptest.Server) *fake {
	f := &fake{t: t, stop: make(chan struct{}), routes: map[string]handler{}, expired: map[string]bool{}, changed: make(chan struct{}, 1)}
	f.srv = start(http.HandlerFunc(f.serve))
	t.Cleanup(func() {
		close(f.stop)
		f.srv.CloseClientConnections()
		f.srv.Close()
	})
	return f
}

// URL is the MCP endpoint of the fake.
func (f *fake) URL() string { return f.srv.URL + "/mcp" }

// on answers the requests of key (a JSON-RPC method, "GET", "DELETE" or
// "response") with h.
func (f *fake) on(key string, h handler) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.routes[key] = h
}

// expire makes the fake forget session id once notifications/initialized
// arrived in it: every POST naming it is answered 404 from then on.
func (f *fake) expire(id string) {
	f.initialized(id)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.expired[id] = true
}

// initialized waits for notifications/initialized in session id.
func (f *fake) initialized(id string) {
	f.t.Helper()
	f.await(1, "initialized in "+id, func(s seen) bool {
		return posted(mcp.MethodNotifyInitialized)(s) && s.Header.Get(headerSession) == id
	})
}

func (f *fake) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	s := seen{Method: r.Method, Path: r.URL.RequestURI(), Header: r.Header.Clone(), Body: body}
	key := r.Method
	if r.Method == http.MethodPost {
		s.Msg, _ = jsonrpc.DecodeMessage(body)
		switch {
		case s.Msg == nil:
		case s.Msg.Violation != nil:
			key = "broken" // cut by the fake's read limit, say
		case s.Msg.Method != "":
			key = s.Msg.Method
		default:
			key = "response"
		}
	}
	f.mu.Lock()
	f.seen = append(f.seen, s)
	h := f.routes[key]
	gone := f.expired[r.Header.Get(headerSession)] && key != mcp.MethodInitialize
	f.mu.Unlock()
	select {
	case f.changed <- struct{}{}:
	default:
	}
	switch {
	case gone:
		http.Error(w, "session not found", http.StatusNotFound)
	case h != nil:
		h(w, r, s.Msg)
	default:
		f.standard(w, r, key, s.Msg)
	}
}

// standard is what the fake does for a request no handler takes.
func (f *fake) standard(w http.ResponseWriter, r *http.Request, key string, m *jsonrpc.Message) {
	switch {
	case key == mcp.MethodInitialize:
		f.mu.Lock()
		f.inits++
		id := fmt.Sprintf("s-%d", f.inits)
		f.mu.Unlock()
		w.Header().Set(headerSession, id)
		writeJSON(w, http.StatusOK, resultOf(m, initResult(mcp.ProtocolVersion20251125)))
	case key == http.MethodGet:
		http.Error(w, "no standalone stream", http.StatusMethodNotAllowed)
	case key == http.MethodDelete:
		w.WriteHeader(http.StatusOK)
	case key == "response" || strings.HasPrefix(key, "notifications/"):
		w.WriteHeader(http.StatusAccepted)
	case m != nil && m.ID != nil:
		writeJSON(w, http.StatusOK, resultOf(m, `{"ok":true}`))
	default:
		http.Error(w, "not JSON-RPC", http.StatusBadRequest)
	}
}

// requests returns the requests seen so far that keep selects (nil: all).
func (f *fake) requests(keep func(seen) bool) []seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []seen
	for _, s := range f.seen {
		if keep == nil || keep(s) {
			out = append(out, s)
		}
	}
	return out
}

// await waits until n requests that keep selects have arrived and
// returns them.
func (f *fake) await(n int, what string, keep func(seen) bool) []seen {
	f.t.Helper()
	guard := time.After(hangGuard)
	for {
		if got := f.requests(keep); len(got) >= n {
			return got
		}
		select {
		case <-f.changed:
		case <-time.After(10 * time.Millisecond):
		case <-guard:
			f.t.Fatalf("the server never saw %d %s", n, what)
		}
	}
}

// posted selects the POSTs carrying method.
func posted(method string) func(seen) bool {
	return func(s seen) bool { return s.Method == http.MethodPost && s.Msg != nil && s.Msg.Method == method }
}

// method selects the requests of an HTTP method.
func method(m string) func(seen) bool { return func(s seen) bool { return s.Method == m } }

// initResult is an initialize result choosing version.
func initResult(version string) string {
	return fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"1"}}`, version)
}

// resultOf is the response to m carrying result.
func resultOf(m *jsonrpc.Message, result string) string {
	id, _ := json.Marshal(m.ID)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result)
}

// writeJSON answers with a JSON body.
func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// openSSE starts an SSE answer and returns a writer of raw event bytes
// that flushes each write.
func openSSE(w http.ResponseWriter) func(raw string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fl := w.(http.Flusher)
	fl.Flush()
	return func(raw string) {
		_, _ = io.WriteString(w, raw)
		fl.Flush()
	}
}

// answerCallWithEvents makes f answer every tools/call with an SSE
// stream: events, in order, then the call's empty result in an event
// with id lastID ("" for none).
func (f *fake) answerCallWithEvents(events []string, lastID string) {
	f.on(mcp.MethodToolsCall, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		put := openSSE(w)
		for _, e := range events {
			put(e)
		}
		put(event(lastID, resultOf(m, `{"content":[]}`)))
	})
}

// event is an SSE event carrying data as one data line, with an id when
// id is not empty.
func event(id, data string) string {
	if id != "" {
		return "id: " + id + "\ndata: " + data + "\n\n"
	}
	return "data: " + data + "\n\n"
}

// hold blocks until the request's client goes or the test ends.
func (f *fake) hold(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-f.stop:
	}
}

// released reports, through a channel, when a hostile handler's client let
// go of it.
func released(f *fake, key string, body func(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message)) <-chan struct{} {
	done := make(chan struct{}, 1)
	f.on(key, func(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
		defer func() {
			select {
			case done <- struct{}{}:
			default:
			}
		}()
		body(w, r, m)
	})
	return done
}

// awaitEnd waits for a held stream to be let go.
func awaitEnd(t *testing.T, ended <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ended:
	case <-time.After(hangGuard):
		t.Fatalf("%s stayed open", what)
	}
}

// inbox collects what a transport delivers.
type inbox chan *jsonrpc.Message

// next waits for the next delivered message.
func (in inbox) next(t testing.TB) *jsonrpc.Message {
	t.Helper()
	select {
	case m := <-in:
		return m
	case <-time.After(hangGuard):
		t.Fatalf("nothing was delivered within %s", hangGuard)
		return nil
	}
}

// empty fails the test when something is still waiting in the inbox.
func (in inbox) empty(t testing.TB) {
	t.Helper()
	select {
	case m := <-in:
		t.Fatalf("one more message was delivered: %s", m.Raw)
	default:
	}
}

// warnings collects what the transport told the user.
type warnings struct {
	mu   sync.Mutex
	list []string
}

func (w *warnings) add(s string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.list = append(w.list, s)
}

// all returns the warnings so far.
func (w *warnings) all() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.list...)
}

// with waits for a warning holding part.
func (w *warnings) with(t testing.TB, part string) string {
	t.Helper()
	var got string
	flowtest.Eventually(t, "a warning holding "+part, func() bool {
		for _, s := range w.all() {
			if strings.Contains(s, part) {
				got = s
				return true
			}
		}
		return false
	})
	return got
}

// rig is a transport under test with what it reported.
type rig struct {
	tr    *Transport
	store *capture.Store
	in    inbox
	warn  *warnings
}

// config is the Config of a rig on url before adjust.
func config(url string, store *capture.Store, warn *warnings, adjust func(*Config)) Config {
	cfg := Config{URL: url, Sink: store, Client: httpconf.Client{Warn: warn.add}, RetryCap: time.Second, CancelGrace: 100 * time.Millisecond,
		CloseTimeout: 200 * time.Millisecond}
	if adjust != nil {
		adjust(&cfg)
	}
	return cfg
}

// newRig builds a transport on url, started with a deliver that fills its
// inbox; it is closed when the test ends.
func newRig(t testing.TB, url string, adjust func(*Config)) *rig {
	t.Helper()
	return newRigOf(t, url, capture.NewStore(capture.Config{}), adjust)
}

// newRigOf is newRig capturing into store.
func newRigOf(t testing.TB, url string, store *capture.Store, adjust func(*Config)) *rig {
	t.Helper()
	r := &rig{store: store, in: make(inbox, 1024), warn: &warnings{}}
	tr, err := New(config(url, r.store, r.warn, adjust))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	r.tr = tr
	t.Cleanup(func() { _ = tr.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	if err := tr.Start(ctx, func(m *jsonrpc.Message) { r.in <- m }); err != nil {
		t.Fatalf("Start: %v", err)
	}
	return r
}

// send sends m or fails the test.
func (r *rig) send(t testing.TB, m *jsonrpc.Message) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	if err := r.tr.Send(ctx, m); err != nil {
		t.Fatalf("Send %s: %v", m.Describe(), err)
	}
}

// handshake runs initialize and notifications/initialized by hand and
// returns the initialize answer.
func (r *rig) handshake(t testing.TB) *jsonrpc.Message {
	t.Helper()
	r.send(t, request(t, 1, mcp.MethodInitialize, map[string]any{
		"protocolVersion": mcp.ProtocolVersion20251125, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "1"},
	}))
	answer := r.in.next(t)
	r.send(t, notification(t, mcp.MethodNotifyInitialized, nil))
	return answer
}

// frames returns the captured frames that keep selects.
func (r *rig) frames(keep func(*capture.Frame) bool) []*capture.Frame {
	var out []*capture.Frame
	for _, f := range r.store.Window(1, r.store.Len()) {
		if keep(f) {
			out = append(out, f)
		}
	}
	return out
}

// frame waits for a captured frame that keep selects.
func (r *rig) frame(t testing.TB, what string, keep func(*capture.Frame) bool) *capture.Frame {
	t.Helper()
	var got *capture.Frame
	flowtest.Eventually(t, what, func() bool {
		if fs := r.frames(keep); len(fs) > 0 {
			got = fs[0]
			return true
		}
		return false
	})
	return got
}

// request builds a request or fails the test.
func request(t testing.TB, id int64, method string, params any) *jsonrpc.Message {
	t.Helper()
	m, err := jsonrpc.NewRequest(jsonrpc.IntID(id), method, params)
	if err != nil {
		t.Fatalf("building %s: %v", method, err)
	}
	return m
}

// notification builds a notification or fails the test.
func notification(t testing.TB, method string, params any) *jsonrpc.Message {
	t.Helper()
	m, err := jsonrpc.NewNotification(method, params)
	if err != nil {
		t.Fatalf("building %s: %v", method, err)
	}
	return m
}

// modernParams are params carrying the 2026-07-28 _meta and the given
// members.
func modernParams(members map[string]any) map[string]any {
	p := map[string]any{"_meta": map[string]any{mcp.MetaProtocolVersion: mcp.Modern}}
	for k, v := range members {
		p[k] = v
	}
	return p
}

// exchangeError returns the *client.ExchangeError a delivered message
// carries, failing the test when it carries none.
func exchangeError(t testing.TB, m *jsonrpc.Message) *client.ExchangeError {
	t.Helper()
	xe, ok := m.Violation.(*client.ExchangeError)
	if !ok {
		t.Fatalf("delivered %s (violation %v), want a message carrying an ExchangeError", m.Raw, m.Violation)
	}
	return xe
}

// session is an engine session over a transport of the fake's URL.
type session struct {
	*client.Session
	rig *rig
}

// connect starts an engine session over a new transport on url and runs
// its handshake.
func connect(t testing.TB, url string, adjust func(*Config), opts client.Options) *session {
	t.Helper()
	s, err := dial(t, url, adjust, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	return s
}

// dial is connect returning the handshake's error.
func dial(t testing.TB, url string, adjust func(*Config), opts client.Options) (*session, error) {
	t.Helper()
	r := &rig{store: capture.NewStore(capture.Config{}), warn: &warnings{}}
	tr, err := New(config(url, r.store, r.warn, adjust))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	r.tr = tr
	s := &session{Session: client.New(tr, opts), rig: r}
	t.Cleanup(func() { _ = s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	return s, s.Connect(ctx)
}

// call runs a request through the engine.
func (s *session) call(method string, params any) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	return s.Call(ctx, method, params)
}

// noLeaks checks, when the test ends, that the goroutines it started are
// gone. Register it first, so that it runs after every other cleanup.
func noLeaks(t testing.TB) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(hangGuard)
		for runtime.NumGoroutine() > before {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				t.Fatalf("%d goroutines before the test, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}
