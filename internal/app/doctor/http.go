package doctor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// probeBody is the request the HTTP probe posts: a ping, which an MCP
// endpoint answers (or refuses) in JSON-RPC without any session.
const probeBody = `{"jsonrpc":"2.0","id":"mcpscope-doctor","method":"ping"}`

// bodyShown caps what the probes read of an answer.
const bodyShown = 4096

// challenge is a 401 seen by the HTTP or WebSocket step, for the auth step.
type challenge struct {
	header string   // the WWW-Authenticate header(s), joined
	values []string // the WWW-Authenticate headers, as sent
}

// httpLayer checks the HTTP exchange (or the WebSocket upgrade) on conn,
// the connection of the tcp and tls steps, and then whether the server
// asks for credentials.
func (w *walk) httpLayer(conn net.Conn) {
	name, probe := "http", w.probeHTTP
	switch w.cfg.Transport {
	case "ws", "tools-ws", "gateway":
		name, probe = "websocket", w.probeUpgrade
	}
	var ch *challenge
	w.step(name, func(ctx context.Context) (detail string, err error) {
		detail, ch, err = probe(ctx, w.clientOn(conn))
		var f *Failure
		if w.unix != nil && errors.As(err, &f) && f.Fix == notFoundFix {
			f.Fix = unixNotFoundFix
		}
		return detail, err
	})
	w.auth(ch)
}

// clientOn is the probes' client sending its one request on conn, the
// connection the earlier steps opened and checked, instead of dialing.
func (w *walk) clientOn(conn net.Conn) *http.Client {
	c := w.httpClient()
	held := make(chan net.Conn, 1)
	held <- conn
	take := func(context.Context, string, string) (net.Conn, error) {
		select {
		case c := <-held:
			return c, nil
		default:
			return nil, errors.New("the probe's connection is used already")
		}
	}
	tr := c.Transport.(*http.Transport)
	tr.DialContext, tr.DialTLSContext = take, take
	return c
}

// httpClient is the probes' client: the flags' TLS verification, no
// redirects followed (they are reported).
func (w *walk) httpClient() *http.Client {
	// No Accept-Encoding, as the real transport: an encoded answer is seen
	// as the server sent it, not decoded out of sight.
	tr := &http.Transport{TLSClientConfig: w.clientTLS(), DisableKeepAlives: true, DisableCompression: true}
	w.dialUnix(tr)
	return &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// newRequest builds a probe request with the user's headers and Origin;
// over a Unix socket it goes to http://localhost/PATH.
func (w *walk) newRequest(ctx context.Context, method string, body io.Reader) (*http.Request, error) {
	u := httpOf(w.cfg.URL)
	if w.unix != nil {
		u = *w.unix.Request
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return nil, fail(checklist.Usage, "check the URL", "building the request: %w", err)
	}
	req.Header = w.header()
	return req, nil
}

// header is what every probe sends besides its own headers: the user's
// headers and Origin.
func (w *walk) header() http.Header {
	h := w.cfg.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	if w.cfg.Origin != "" {
		h.Set("Origin", w.cfg.Origin)
	}
	return h
}

// httpOf is a copy of u with the http scheme its transport uses: http for
// ws, https for wss.
func httpOf(u *url.URL) url.URL {
	c := *u
	switch strings.ToLower(c.Scheme) {
	case "ws":
		c.Scheme = "http"
	case "wss":
		c.Scheme = "https"
	}
	return c
}

// probeHTTP posts a ping and judges the answer: its status, content type,
// a redirect, an Origin refusal, a 401 challenge. As the http transport
// does, a POST refused with 400, 404 or 405 and no JSON-RPC answer is
// followed by the legacy HTTP+SSE stream (2024-11-05), which the step then
// judges and names; --transport sse opens that stream at once.
func (w *walk) probeHTTP(ctx context.Context, client *http.Client) (string, *challenge, error) {
	if w.cfg.Transport == "sse" {
		return w.probeLegacy(ctx, client)
	}
	req, err := w.newRequest(ctx, http.MethodPost, strings.NewReader(probeBody))
	if err != nil {
		return "", nil, err
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return "", nil, fmt.Errorf("POST %s: %w", w.cfg.URL.Redacted(), err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, bodyShown))
	detail, ch, err := judgeHTTP(http.MethodPost, resp, w.cfg.Origin, false, w.cfg.Authorization != nil)
	if err != nil {
		if answer, ok := errorAnswer(resp, body); ok {
			// A refusal in a JSON-RPC envelope is the endpoint answering
			// (seed 004's tools-http refuses all but tools/call so).
			return answer, nil, nil
		}
	}
	if w.cfg.Transport != "http" || !fallsBack(resp.StatusCode, body) {
		return probeRefused(detail, resp.StatusCode, err), ch, err
	}
	// The stream goes on a connection of its own, as the transport's does.
	legacy, ch, lerr := w.probeLegacy(ctx, w.httpClient())
	if lerr != nil {
		// The POST's answer stays the verdict; the stream tried is named.
		var f *Failure
		if errors.As(err, &f) {
			return "", nil, &Failure{Class: f.Class, Fix: f.Fix, Err: fmt.Errorf("%w; nor a legacy HTTP+SSE stream: %w", f.Err, lerr)}
		}
		return detail + " (nor a legacy HTTP+SSE stream: " + lerr.Error() + ")", nil, err
	}
	return fmt.Sprintf("POST → %s with no JSON-RPC answer; the legacy HTTP+SSE transport (2024-11-05): %s", resp.Status, legacy), ch, nil
}

// probeRefused words a 4xx that judgeHTTP let pass as the ping probe's
// outcome: the endpoint answered, and refuses a request outside a session
// until the handshake, which the next steps make.
func probeRefused(detail string, code int, err error) string {
	if err != nil || code < 400 || code >= 500 || code == http.StatusUnauthorized {
		return detail
	}
	return "ping probe outside a session: refused (" + strings.TrimPrefix(detail, "POST → ") + "), as an endpoint that wants the handshake first does"
}

// errorAnswer words a 4xx that carries a JSON-RPC error envelope (but a
// 401 or 403, which judgeHTTP words itself): the endpoint is there and
// speaks JSON-RPC; it refused the probe.
func errorAnswer(resp *http.Response, body []byte) (string, bool) {
	code := resp.StatusCode
	if code < 400 || code >= 500 || code == http.StatusUnauthorized || code == http.StatusForbidden {
		return "", false
	}
	m, err := jsonrpc.DecodeMessage(body)
	if err != nil || m == nil || m.Violation != nil || m.Error == nil {
		return "", false
	}
	return fmt.Sprintf("POST → %s with a JSON-RPC answer: error %d %s (the endpoint is there; it refused the probe)", resp.Status, m.Error.Code, m.Error.Message), true
}

// notFoundFix is the fix of a 404.
const notFoundFix = "check the URL's path: MCP endpoints are often at /mcp"

// judgeHTTP words an HTTP answer: what it says when it is fine, the
// challenge of a 401, or the failure with its fix. authorizes says
// whether mcpscope's OAuth flow runs for the target (Config.Authorization).
func judgeHTTP(method string, resp *http.Response, origin string, sse, authorizes bool) (string, *challenge, error) {
	status := resp.Status
	ctype := resp.Header.Get("Content-Type")
	media, _, _ := mime.ParseMediaType(ctype)
	detail := method + " → " + status
	scope, stepUp := insufficientScope(resp)
	if ctype != "" {
		detail += ", " + ctype
	}
	switch code := resp.StatusCode; {
	case httphead.UndefinedStatus(code):
		return "", nil, fail(checklist.Protocol, "the server must answer with a status HTTP defines (1xx to 5xx)", "%s is not a status HTTP defines", status)
	case code == http.StatusUnauthorized:
		return detail + ": asks for credentials", &challenge{header: strings.Join(resp.Header.Values("WWW-Authenticate"), ", "), values: resp.Header.Values("WWW-Authenticate")}, nil
	case code >= 300 && code < 400:
		loc := resp.Header.Get("Location")
		return "", nil, fail(checklist.Connection, "use the URL it redirects to: "+orNone(loc), "%s redirects to %s", status, orNone(loc))
	case code == http.StatusForbidden && stepUp:
		scope := orNone(termtext.LineMax(scope, challengeShown))
		return "", nil, fail(checklist.Connection, scopeFix(scope, authorizes), "%s: insufficient_scope, the server asks for the scope %s", status, scope)
	case code == http.StatusForbidden && origin != "":
		return "", nil, fail(checklist.Connection, "the server may refuse the Origin "+origin+"; try another --origin or none", "%s with Origin %s", status, origin)
	case code == http.StatusForbidden:
		return "", nil, fail(checklist.Connection, "the server refused the request; if it checks the Origin header, pass --origin", "%s", status)
	case code == http.StatusNotFound:
		return "", nil, fail(checklist.Connection, notFoundFix, "%s: no MCP endpoint at this path", status)
	case code == http.StatusMethodNotAllowed && !sse:
		return "", nil, fail(checklist.Connection, "if this is a 2024-11-05 server with an SSE endpoint, try --transport sse", "%s: the endpoint does not accept POST", status)
	case httphead.TransientStatus(code):
		return "", nil, fail(checklist.Connection, "the server, or a gateway before it, is busy or down for now; try again later", "%s (transient: the request may succeed later)", status)
	case code >= 500:
		return "", nil, fail(checklist.Connection, "the server failed; look at its logs", "%s", status)
	case code >= 200 && code < 300 && httphead.UnaskedEncoding(resp.Header) != nil:
		return "", nil, fail(checklist.Protocol, "the server must not encode its answer when the request asks for no encoding (it sends no Accept-Encoding)", "%s: %v", status, httphead.UnaskedEncoding(resp.Header))
	case code >= 200 && code < 300:
		want := media == "application/json" || media == "text/event-stream"
		if sse {
			want = media == "text/event-stream"
		}
		if !want {
			return "", nil, fail(checklist.Protocol, "this URL is not an MCP endpoint (it answered "+orNone(ctype)+"); check the path", "%s answered with content type %s, not JSON or an event stream", status, orNone(ctype))
		}
	}
	return detail, nil, nil
}

// scopeFix is the fix of a 403 insufficient_scope asking for scope: a
// step-up only where mcpscope's OAuth flow runs.
func scopeFix(scope string, authorizes bool) string {
	const header = "pass a token granted that scope with --header 'Authorization: Bearer TOKEN'"
	if !authorizes {
		return "the token lacks the scope the server asks for (" + scope + "): no OAuth flow runs for this target (--no-auth, or an Authorization of --header), so none authorizes again for it; " + header
	}
	return "the token lacks the scope the server asks for (" + scope + "): a command authorizes again for it (step-up), or " + header
}

// orNone returns s, or "none" when it is empty.
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// insufficientScope reads a Bearer challenge with
// error="insufficient_scope" (RFC 6750 §3.1): the scope it asks for ("" when
// it names none), and whether resp has one.
func insufficientScope(resp *http.Response) (scope string, ok bool) {
	cs, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil {
		return "", false
	}
	for _, c := range cs {
		if c.Scheme == "bearer" && c.Params["error"] == "insufficient_scope" {
			return c.Params["scope"], true
		}
	}
	return "", false
}
