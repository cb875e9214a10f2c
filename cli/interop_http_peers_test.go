package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// The HTTP peers of PEERS.md, started by internal/testkit/peertest and driven with
// raw net/http: each test proves a peer starts on its own loopback port,
// answers, and is stopped with the test, and records how it behaves on the
// wire, so that mcpscope's HTTP transport is measured against facts.

// streamablePeer is one Streamable HTTP server and how it answers.
type streamablePeer struct {
	name  string
	start func(testing.TB) *peertest.HTTPPeer
	// answers is the media type of the answer to a request.
	answers string
	// priming: the SSE answer opens with an event that has an id and no data.
	priming bool
	// session: initialize opens a session (Mcp-Session-Id).
	session bool
	// get is the status of the standalone GET stream (in the session).
	get int
	// deleted is the status of DELETE (with the session, if any),
	// afterDelete the status of a request in that session afterwards, and
	// unknown the status of a request naming a session never opened.
	deleted, afterDelete, unknown int
	// discover is how a server/discover probe for 2026-07-28, made before
	// any session, is answered: an HTTP status and either the versions'
	// list (modern: it lists 2026-07-28) or a JSON-RPC error code.
	discover discoverAnswer
}

type discoverAnswer struct {
	status int
	modern bool
	code   int
}

var streamablePeers = []streamablePeer{
	// The TS reference: every answer SSE, with a priming event (an id, empty
	// data, no retry field) first and the stream closed after the response;
	// event ids are UUIDs. The GET stream sends nothing at all, not even a
	// comment. A stale session is 400 with a JSON-RPC body
	// {"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid
	// session ID provided"}} (no id), where the spec says 404. server/discover
	// before initialize is 400 {"code":-32000,"message":"Bad Request: Server
	// not initialized"},"id":null} — a 400 with a JSON-RPC body, unlike the
	// -32601 of its stdio mode.
	{name: "TSReference", start: peertest.StartTSStreamableHTTP, answers: "text/event-stream", priming: true,
		session: true, get: http.StatusOK, deleted: http.StatusOK, afterDelete: http.StatusBadRequest, unknown: http.StatusBadRequest,
		discover: discoverAnswer{status: http.StatusBadRequest, code: -32000}},
	// The Go SDK: SSE answers without event ids or priming events, every
	// path served. The GET stream opens with the comment ": ok". A stale
	// session is 404 text/plain "session not found"; DELETE is 204. A
	// stateful server answers server/discover (which needs the
	// MCP-Protocol-Version and Mcp-Method headers, else 400 -32020) with
	// versions up to 2025-11-25 only.
	{name: "GoSDKEverything", start: peertest.StartGoSDKEverythingHTTP, answers: "text/event-stream",
		session: true, get: http.StatusOK, deleted: http.StatusNoContent, afterDelete: http.StatusNotFound, unknown: http.StatusNotFound,
		discover: discoverAnswer{status: http.StatusOK}},
	{name: "GoSDKConformanceStateful", start: func(t testing.TB) *peertest.HTTPPeer { return peertest.StartGoSDKConformanceHTTP(t, false) },
		answers: "text/event-stream", session: true, get: http.StatusOK, deleted: http.StatusNoContent, afterDelete: http.StatusNotFound, unknown: http.StatusNotFound,
		discover: discoverAnswer{status: http.StatusOK}},
	// Stateless: initialize is still answered (2025-11-25, no session id);
	// GET and DELETE are 405 "Allow: POST"; a session id is ignored.
	{name: "GoSDKConformanceStateless", start: func(t testing.TB) *peertest.HTTPPeer { return peertest.StartGoSDKConformanceHTTP(t, true) },
		answers: "text/event-stream", get: http.StatusMethodNotAllowed, deleted: http.StatusMethodNotAllowed, afterDelete: http.StatusOK, unknown: http.StatusOK,
		discover: discoverAnswer{status: http.StatusOK, modern: true}},
	// mark3labs: plain application/json answers; session ids
	// "mcp-session-<uuid>"; the GET stream sends nothing; DELETE is 200 but
	// the session goes on answering; an unknown session is 404 text/plain
	// "Invalid session ID". It answers server/discover without a session,
	// listing 2026-07-28 (cacheScope "private").
	{name: "Mark3labsConformance", start: peertest.StartMark3labsConformance, answers: "application/json",
		session: true, get: http.StatusOK, deleted: http.StatusOK, afterDelete: http.StatusOK, unknown: http.StatusNotFound,
		discover: discoverAnswer{status: http.StatusOK, modern: true}},
}

// TestHTTPPeerStreamable: each Streamable HTTP peer answers initialize with
// 2025-11-25 (and a session id where it keeps sessions), takes
// notifications/initialized with 202, and answers the GET stream, DELETE,
// a request on the ended session and a server/discover probe as recorded
// in streamablePeers.
func TestHTTPPeerStreamable(t *testing.T) {
	t.Parallel()
	for _, sp := range streamablePeers {
		t.Run(sp.name, func(t *testing.T) {
			t.Parallel()
			p := sp.start(t)
			c := rawClient(t)

			res := rawPost(t, c, p.URL, initializeMsg("2025-11-25"))
			if res.StatusCode != http.StatusOK || mediaType(res) != sp.answers {
				t.Fatalf("initialize: %s %s, want 200 %s", res.Status, res.Header.Get("Content-Type"), sp.answers)
			}
			m, events := rpcAnswer(t, res)
			if v := resultVersion(m); v != "2025-11-25" || string(m.ID) != "1" {
				t.Fatalf("initialize answered id %s version %q: %s", m.ID, v, m.Result)
			}
			primed := len(events) > 0 && events[0].hasID && events[0].data == ""
			if primed != sp.priming || (sp.priming && len(events) != 2) {
				t.Errorf("priming event %v, want %v: %+v", primed, sp.priming, events)
			}
			session := res.Header.Get("Mcp-Session-Id")
			if (session != "") != sp.session {
				t.Fatalf("Mcp-Session-Id %q, want one: %v", session, sp.session)
			}
			inSession := []string{"MCP-Protocol-Version", "2025-11-25"}
			if session != "" {
				inSession = append(inSession, "Mcp-Session-Id", session)
			}

			res = rawPost(t, c, p.URL, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, inSession...)
			if res.StatusCode != http.StatusAccepted {
				t.Errorf("notifications/initialized: %s, want 202", res.Status)
			}
			res = rawDo(t, c, http.MethodGet, p.URL, "", append([]string{"Accept", "text/event-stream"}, inSession...)...)
			if res.StatusCode != sp.get || (sp.get == http.StatusOK && mediaType(res) != "text/event-stream") {
				t.Errorf("GET: %s %s, want %d", res.Status, res.Header.Get("Content-Type"), sp.get)
			}
			res.Body.Close()
			if res = rawDo(t, c, http.MethodDelete, p.URL, "", inSession...); res.StatusCode != sp.deleted {
				t.Errorf("DELETE: %s, want %d", res.Status, sp.deleted)
			}
			ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
			if res = rawPost(t, c, p.URL, ping, inSession...); res.StatusCode != sp.afterDelete {
				t.Errorf("a request after DELETE: %s, want %d", res.Status, sp.afterDelete)
			}
			if res = rawPost(t, c, p.URL, ping, append(inSession, "Mcp-Session-Id", "never-opened")...); res.StatusCode != sp.unknown {
				t.Errorf("a request in an unknown session: %s, want %d", res.Status, sp.unknown)
			}
			assertDiscover(t, c, p.URL, sp.discover)
		})
	}
}

// modernMeta is the _meta every 2026-07-28 request carries.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcpscope-test","version":"0"}}`

// modernHeaders are the headers of a 2026-07-28 request of method.
func modernHeaders(method string) []string {
	return []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method}
}

// assertDiscover probes url with server/discover for 2026-07-28, the way
// a 2026-07-28 client opens, and checks the answer is want.
func assertDiscover(t *testing.T, c *http.Client, url string, want discoverAnswer) {
	t.Helper()
	res := rawPost(t, c, url, `{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{`+modernMeta+`}}`, modernHeaders("server/discover")...)
	if res.StatusCode != want.status {
		t.Errorf("server/discover: %s, want %d", res.Status, want.status)
	}
	m, _ := rpcAnswer(t, res)
	if want.code != 0 {
		if m.Error == nil || m.Error.Code != want.code {
			t.Errorf("server/discover answered %s %+v, want error %d", m.Result, m.Error, want.code)
		}
		return
	}
	var r struct {
		ResultType        string   `json:"resultType"`
		SupportedVersions []string `json:"supportedVersions"`
	}
	if err := json.Unmarshal(m.Result, &r); err != nil || r.ResultType != "complete" ||
		slices.Contains(r.SupportedVersions, "2026-07-28") != want.modern || !slices.Contains(r.SupportedVersions, "2025-11-25") {
		t.Errorf("server/discover answered %s %+v, want 2026-07-28 listed: %v", m.Result, m.Error, want.modern)
	}
}

// TestHTTPPeerConformanceStateless: the stateless Go SDK conformance server
// speaks 2026-07-28 with no session: server/discover then a tools/call, both
// with the per-request _meta and the MCP-Protocol-Version, Mcp-Method and
// (for tools/call) Mcp-Name headers. A missing header is a 400 that carries
// a JSON-RPC error -32020 (an answer, not a transport failure), as is a
// _meta without clientCapabilities (-32602).
func TestHTTPPeerConformanceStateless(t *testing.T) {
	t.Parallel()
	p := peertest.StartGoSDKConformanceHTTP(t, true)
	c := rawClient(t)

	call := `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"test_simple_text","arguments":{},` + modernMeta + `}}`
	res := rawPost(t, c, p.URL, call, append(modernHeaders("tools/call"), "Mcp-Name", "test_simple_text")...)
	m, _ := rpcAnswer(t, res)
	if res.StatusCode != http.StatusOK || res.Header.Get("Mcp-Session-Id") != "" ||
		!strings.Contains(string(m.Result), `"resultType":"complete"`) || !strings.Contains(string(m.Result), "This is a simple text response for testing.") {
		t.Errorf("tools/call: %s session %q: %s %+v", res.Status, res.Header.Get("Mcp-Session-Id"), m.Result, m.Error)
	}

	for _, bad := range []struct {
		why, msg string
		header   []string
		code     int
	}{
		{"no Mcp-Name", call, modernHeaders("tools/call"), -32020},
		{"no Mcp-Method", call, []string{"MCP-Protocol-Version", "2026-07-28"}, -32020},
		{"no MCP-Protocol-Version", call, []string{"Mcp-Method", "tools/call", "Mcp-Name", "test_simple_text"}, -32020},
		{"no clientCapabilities", `{"jsonrpc":"2.0","id":5,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
			modernHeaders("server/discover"), -32602},
	} {
		res := rawPost(t, c, p.URL, bad.msg, bad.header...)
		m, _ := rpcAnswer(t, res)
		if res.StatusCode != http.StatusBadRequest || mediaType(res) != "application/json" || m.Error == nil || m.Error.Code != bad.code {
			t.Errorf("%s: %s %s %+v, want 400 with error %d", bad.why, res.Status, res.Header.Get("Content-Type"), m.Error, bad.code)
		}
	}
}

// legacyPeer is one legacy HTTP+SSE server and the endpoint it names.
type legacyPeer struct {
	name  string
	start func(testing.TB) *peertest.HTTPPeer
	// absolute: the endpoint event is an absolute URL; else relative.
	absolute bool
	// endpoint is the path the endpoint resolves to, and query the name of
	// the query parameter carrying the session.
	endpoint, query string
	// accepted is the body of the 202 that takes a POST.
	accepted string
}

var legacyPeers = []legacyPeer{
	// TS: "/message?sessionId=<uuid>"; the POST is answered 202 with the
	// body "Accepted". A POST naming an unknown session is never answered
	// (the request hangs); a POST to /sse is 404 text/html.
	{name: "TSReference", start: peertest.StartTSSSE, endpoint: "/message", query: "sessionId", accepted: "Accepted"},
	// Go SDK: the stream's own path, lowercase "sessionid"; 202 with no body.
	// An unknown session is 404 text/plain "session not found", a POST
	// without one 400 text/plain "sessionid must be provided", any other
	// path 400 "no server available".
	{name: "GoSDKSSE", start: peertest.StartGoSDKSSE, endpoint: "/greeter1", query: "sessionid"},
	// dynamic_path: an absolute http://localhost:PORT/api/<tenant>/message
	// URL. An unknown session is 400 with the JSON-RPC error -32602
	// "Invalid session ID" (id null); a POST to the stream is 405.
	{name: "Mark3labsDynamicPath", start: peertest.StartMark3labsDynamicPath, absolute: true,
		endpoint: "/api/" + peertest.DynamicPathTenant + "/message", query: "sessionId"},
}

// TestHTTPPeerLegacySSE: each legacy peer's stream opens with an endpoint
// event (relative or absolute as recorded), resolved against the stream's
// URL it takes the initialize POST with 202, and the answer arrives on the
// stream as a message event. No peer sends event ids or retry fields.
func TestHTTPPeerLegacySSE(t *testing.T) {
	t.Parallel()
	for _, lp := range legacyPeers {
		t.Run(lp.name, func(t *testing.T) {
			t.Parallel()
			p := lp.start(t)
			c := rawClient(t)
			stream := rawDo(t, c, http.MethodGet, p.URL, "", "Accept", "text/event-stream")
			if stream.StatusCode != http.StatusOK || mediaType(stream) != "text/event-stream" {
				t.Fatalf("GET %s: %s %s", p.URL, stream.Status, stream.Header.Get("Content-Type"))
			}
			events := newSSEReader(stream.Body)
			ev, err := events.next()
			if err != nil || ev.event != "endpoint" || ev.hasID || ev.retry != "" {
				t.Fatalf("first event %+v (%v), want an endpoint event", ev, err)
			}
			ref, err := url.Parse(ev.data)
			if err != nil || ref.IsAbs() != lp.absolute {
				t.Fatalf("endpoint %q (%v), want absolute: %v", ev.data, err, lp.absolute)
			}
			endpoint := stream.Request.URL.ResolveReference(ref)
			if endpoint.Host != stream.Request.URL.Host || endpoint.Path != lp.endpoint || endpoint.Query().Get(lp.query) == "" {
				t.Fatalf("endpoint %q resolves to %s, want %s?%s=… on %s", ev.data, endpoint, lp.endpoint, lp.query, stream.Request.URL.Host)
			}

			res := rawDo(t, c, http.MethodPost, endpoint.String(), initializeMsg("2024-11-05"))
			body, _ := io.ReadAll(io.LimitReader(res.Body, 1024))
			if res.StatusCode != http.StatusAccepted || string(body) != lp.accepted {
				t.Errorf("POST %s: %s %q, want 202 %q", endpoint, res.Status, body, lp.accepted)
			}
			ev, err = events.next()
			var m wireMsg
			if err != nil || ev.event != "message" || ev.hasID || json.Unmarshal([]byte(ev.data), &m) != nil ||
				string(m.ID) != "1" || resultVersion(m) != "2024-11-05" {
				t.Errorf("the stream's next event %+v (%v), want the initialize answer for 2024-11-05", ev, err)
			}
		})
	}
}
