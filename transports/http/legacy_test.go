package mcphttp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// legacyFake is a server of the HTTP+SSE transport of 2024-11-05: GET
// opens the stream, whose endpoint event names where to POST; each POST
// is accepted with 202 and answered on the stream. A POST anywhere else
// is refused with 405, as a server that knows no Streamable HTTP does.
type legacyFake struct {
	*fake
	endpoint string // the endpoint event's data
	post     string // the path POSTs are taken on
	out      chan string
	end      chan struct{} // closing it ends the stream
}

// newLegacyFake starts a legacy server; endpoint makes the endpoint
// event's data from the server's base URL.
func newLegacyFake(t testing.TB, endpoint func(base string) string) *legacyFake {
	l := &legacyFake{fake: newFake(t), out: make(chan string, 64), end: make(chan struct{})}
	l.endpoint = endpoint(l.srv.URL)
	u, err := url.Parse(l.srv.URL + "/sse")
	if err != nil {
		t.Fatal(err)
	}
	if u, err = u.Parse(l.endpoint); err != nil {
		t.Fatal(err)
	}
	l.post = u.Path
	l.on(http.MethodGet, l.stream)
	l.on(mcp.MethodInitialize, l.answer(initResult(mcp.ProtocolVersion20241105)))
	l.on(mcp.MethodToolsList, l.answer(`{"tools":[]}`))
	l.on(mcp.MethodPing, l.answer(`{}`))
	l.on(mcp.MethodDiscover, l.refuse)
	return l
}

func (l *legacyFake) stream(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
	put := openSSE(w)
	put("event: endpoint\ndata: " + l.endpoint + "\n\n")
	for {
		select {
		case ev := <-l.out:
			put(ev)
		case <-l.end:
			return
		case <-r.Context().Done():
			return
		case <-l.stop:
			return
		}
	}
}

// posted reports whether a POST came where the endpoint says, and
// refuses it with 405 when not.
func (l *legacyFake) taken(w http.ResponseWriter, r *http.Request) bool {
	if r.URL.Path != l.post {
		w.Header().Set("Allow", "GET")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return false
	}
	w.WriteHeader(http.StatusAccepted)
	return true
}

// answer accepts a request and answers it with result on the stream.
func (l *legacyFake) answer(result string) handler {
	return func(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
		if l.taken(w, r) {
			l.out <- "event: message\ndata: " + resultOf(m, result) + "\n\n"
		}
	}
}

// refuse accepts a request and answers it -32601 on the stream.
func (l *legacyFake) refuse(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
	if l.taken(w, r) {
		id, _ := m.ID.MarshalJSON()
		l.out <- fmt.Sprintf("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}\n\n", id)
	}
}

// legacyMode speaks HTTP+SSE only.
func legacyMode(c *Config) { c.Mode = ModeLegacySSE }

// A relative endpoint is resolved against the stream's URL; the session
// runs over POSTs to it and answers on the stream.
func TestLegacyRelativeEndpoint(t *testing.T) {
	noLeaks(t)
	l := newLegacyFake(t, func(string) string { return "/message?sessionId=42" })
	s := connect(t, l.srv.URL+"/sse", legacyMode, client.Options{})
	if _, err := s.call(mcp.MethodToolsList, nil); err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	for _, p := range l.requests(method(http.MethodPost)) {
		if p.Path != "/message?sessionId=42" || p.Header.Get(headerSession) != "" {
			t.Errorf("POST %s in session %q", p.Path, p.Header.Get(headerSession))
		}
	}
	if got := s.LinkState(); got.Transport != "HTTP+SSE" || got.SessionID != "42" {
		t.Errorf("LinkState = %+v, want HTTP+SSE in the endpoint's session 42", got)
	}
	if s.ProtocolVersion() != mcp.ProtocolVersion20241105 {
		t.Errorf("version %q", s.ProtocolVersion())
	}
	_ = s.Close()
	if n := len(l.requests(method(http.MethodDelete))); n != 0 {
		t.Errorf("%d DELETEs in the legacy transport", n)
	}
}

// An absolute endpoint on the stream's origin is taken as it is.
func TestLegacyAbsoluteEndpoint(t *testing.T) {
	l := newLegacyFake(t, func(base string) string { return base + "/elsewhere/post?x=1" })
	s := connect(t, l.srv.URL+"/sse", legacyMode, client.Options{ProtocolVersion: mcp.ProtocolVersion20241105})
	if _, err := s.call(mcp.MethodPing, nil); err != nil {
		t.Fatalf("ping: %v", err)
	}
	if p := l.requests(method(http.MethodPost)); len(p) == 0 || p[0].Path != "/elsewhere/post?x=1" {
		t.Fatalf("POSTs: %+v", p)
	}
	if got := s.LinkState().SessionID; got != "" {
		t.Errorf("an endpoint that names no session gives the session %q", got)
	}
}

// The session a legacy endpoint names is its sessionId query parameter,
// however the server spells the name.
func TestLegacySession(t *testing.T) {
	for endpoint, want := range map[string]string{
		"/message?sessionId=232ceab4":                          "232ceab4",
		"/greeter1?sessionid=R2J5":                             "R2J5",
		"http://localhost:1/api/t/message?sessionId=a%2Fb&x=1": "a/b",
		"/message?session=1":                                   "",
		"/message?sessionId=":                                  "",
		"/message":                                             "",
	} {
		u, err := url.Parse(endpoint)
		if err != nil {
			t.Fatal(err)
		}
		if got := legacySession(u); got != want {
			t.Errorf("legacySession(%s) = %q, want %q", endpoint, got, want)
		}
	}
	if got := legacySession(nil); got != "" {
		t.Errorf("legacySession(nil) = %q", got)
	}
}

// An endpoint on another origin is refused: Start fails at once, saying
// so, and nothing is POSTed there.
func TestLegacyEndpointOnAnotherOrigin(t *testing.T) {
	noLeaks(t)
	elsewhere := newFake(t)
	l := newLegacyFake(t, func(string) string { return elsewhere.URL() })
	tr, err := New(Config{URL: l.srv.URL + "/sse", Mode: ModeLegacySSE})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	ctx, cancel := context.WithTimeout(t.Context(), hangGuard)
	defer cancel()
	err = tr.Start(ctx, nil)
	if err == nil || !strings.Contains(err.Error(), "another origin") {
		t.Fatalf("Start = %v", err)
	}
	if n := len(elsewhere.requests(nil)); n != 0 {
		t.Errorf("%d requests went to the other origin", n)
	}
}

// The end of the stream ends the transport, saying why, and fails what
// was pending.
func TestLegacyStreamEndEndsTheTransport(t *testing.T) {
	noLeaks(t)
	l := newLegacyFake(t, func(string) string { return "/message" })
	s := connect(t, l.srv.URL+"/sse", legacyMode, client.Options{ProtocolVersion: mcp.ProtocolVersion20241105})
	l.on(mcp.MethodToolsList, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		if l.taken(w, r) {
			close(l.end)
		}
	})
	_, err := s.call(mcp.MethodToolsList, nil)
	var ce *client.ConnectionError
	if !errors.As(err, &ce) {
		t.Fatalf("tools/list = %v", err)
	}
	select {
	case <-s.rig.tr.Done():
	case <-time.After(hangGuard):
		t.Fatalf("Done never closed within %s", hangGuard)
	}
	if e := s.rig.tr.Err(); e == nil || !strings.Contains(e.Error(), "SSE stream") || !strings.Contains(e.Error(), "cannot resume") {
		t.Errorf("Err = %v", e)
	}
}

// In auto mode, a first POST refused with 405 and no JSON-RPC answer
// falls back to the legacy transport at the same URL, saying so, and the
// session runs there.
func TestAutoFallsBackToLegacy(t *testing.T) {
	noLeaks(t)
	l := newLegacyFake(t, func(string) string { return "/message" })
	s := connect(t, l.srv.URL+"/mcp", nil, client.Options{})
	if _, err := s.call(mcp.MethodToolsList, nil); err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	probe := l.requests(posted(mcp.MethodDiscover))
	if len(probe) != 2 || probe[0].Path != "/mcp" || probe[1].Path != "/message" {
		t.Fatalf("server/discover went to %v", pathsOf(probe))
	}
	if get := l.requests(method(http.MethodGet)); len(get) != 1 || get[0].Path != "/mcp" {
		t.Fatalf("GETs: %v", pathsOf(get))
	}
	s.rig.warn.with(t, "trying the legacy HTTP+SSE transport")
	if got := s.LinkState(); got.Transport != "HTTP+SSE" {
		t.Errorf("LinkState = %+v", got)
	}
}

// A handshake POST refused by the legacy endpoint itself (a plain 404 for
// server/discover, as a legacy server answers a session it does not know)
// is that endpoint's answer: it is not sent there again, so the session
// does not loop on it.
func TestAutoFallbackDoesNotResendWhatTheEndpointRefused(t *testing.T) {
	noLeaks(t)
	l := newLegacyFake(t, func(string) string { return "/message" })
	l.on(mcp.MethodDiscover, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		http.Error(w, "Could not find session", http.StatusNotFound)
	})
	s := connect(t, l.srv.URL+"/mcp", nil, client.Options{})
	if _, err := s.call(mcp.MethodPing, nil); err != nil {
		t.Fatalf("ping: %v", err)
	}
	if probe := l.requests(posted(mcp.MethodDiscover)); len(probe) > 2 {
		t.Fatalf("server/discover was POSTed %d times (%v): the endpoint's refusal was sent again", len(probe), pathsOf(probe[:min(len(probe), 6)]))
	}
}

// The first initialize refused with 404 falls back too.
func TestAutoFallsBackOnInitialize404(t *testing.T) {
	l := newLegacyFake(t, func(string) string { return "/message" })
	l.on(mcp.MethodInitialize, func(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
		if r.URL.Path == "/mcp" {
			http.NotFound(w, r)
			return
		}
		l.answer(initResult(mcp.ProtocolVersion20241105))(w, r, m)
	})
	s := connect(t, l.srv.URL+"/mcp", nil, client.Options{ProtocolVersion: mcp.ProtocolVersion20241105})
	if _, err := s.call(mcp.MethodPing, nil); err != nil {
		t.Fatalf("ping: %v", err)
	}
}

// A 400 carrying a JSON-RPC error is Streamable HTTP's answer: no
// fallback.
func TestAutoKeepsStreamableOnJSONRPCRefusal(t *testing.T) {
	f := newFake(t)
	f.on(mcp.MethodInitialize, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		writeJSON(w, http.StatusBadRequest, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"unsupported protocol version"}}`)
	})
	_, err := dial(t, f.URL(), nil, client.Options{ProtocolVersion: mcp.ProtocolVersion20251125})
	var rpc *client.RPCError
	if !errors.As(err, &rpc) || rpc.Err.Code != -32600 {
		t.Fatalf("Connect = %v", err)
	}
	if n := len(f.requests(method(http.MethodGet))); n != 0 {
		t.Errorf("%d GETs: fell back after a JSON-RPC answer", n)
	}
}

// Streamable mode never falls back.
func TestStreamableModeDoesNotFallBack(t *testing.T) {
	l := newLegacyFake(t, func(string) string { return "/message" })
	_, err := dial(t, l.srv.URL+"/mcp", func(c *Config) { c.Mode = ModeStreamable }, client.Options{ProtocolVersion: mcp.ProtocolVersion20251125})
	var xe *client.ExchangeError
	if !errors.As(err, &xe) || xe.Status != http.StatusMethodNotAllowed {
		t.Fatalf("Connect = %v", err)
	}
	if n := len(l.requests(method(http.MethodGet))); n != 0 {
		t.Errorf("%d GETs in streamable mode", n)
	}
}

func pathsOf(list []seen) []string {
	var out []string
	for _, s := range list {
		out = append(out, s.Method+" "+s.Path)
	}
	return out
}

// A fallback given up before the stream named its endpoint closes that
// stream, and its end does not end the transport.
func TestAbandonedFallbackClosesItsStream(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	f.on(mcp.MethodDiscover, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
	})
	gone := make(chan struct{})
	f.on(http.MethodGet, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		openSSE(w)(": no endpoint yet\n\n")
		f.hold(r)
		close(gone)
	})
	r := newRig(t, f.URL(), nil)
	probe := request(t, 1, mcp.MethodDiscover, modernParams(nil))
	r.send(t, probe)
	f.await(1, "the fallback's GET", method(http.MethodGet))
	r.cancel(t, *probe.ID, "gave up", true)
	select {
	case <-gone:
	case <-time.After(hangGuard):
		t.Fatalf("the fallback's stream stayed open for %s", hangGuard)
	}
	r.send(t, request(t, 2, mcp.MethodPing, nil))
	if m := r.in.next(t); !m.IsResponse() || m.ID.Key() != jsonrpc.IntID(2).Key() {
		t.Fatalf("delivered %s", m.Raw)
	}
	select {
	case <-r.tr.Done():
		t.Fatalf("the transport ended: %v", r.tr.Err())
	default:
	}
	if r.tr.LinkState().Transport != "Streamable HTTP" {
		t.Errorf("LinkState = %+v", r.tr.LinkState())
	}
}
