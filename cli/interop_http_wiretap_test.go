package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// The HTTP counterpart of the stdio wiretap (interop_stubmodes_test.go): a
// reverse proxy of the test's own between mcpscope and a real HTTP peer.
// It relays every exchange byte for byte, SSE events as they come, and
// records the JSON-RPC messages that cross it each way, so that the
// assertions of the stdio interoperability tests (interop_asserts_test.go)
// hold over HTTP too. A tapRule makes it misbehave on purpose.

// tapBodyMax bounds a request body and an SSE line the tap keeps.
const tapBodyMax = 16 << 20

// heldBound bounds the wait, after a run, for mcpscope's connections of
// held exchanges to close.
const heldBound = 10 * time.Second

// unknownSession is the session id a tapRule's expire sends instead of
// mcpscope's: one the peer never opened.
const unknownSession = "mcpscope-test-unknown-session"

// tapRule says what the tap does besides relaying; nil fields do nothing.
type tapRule struct {
	// hold, when it matches a message mcpscope sent, withholds the peer's
	// answer to that POST: its status and headers are relayed, its body
	// is not, until mcpscope gives the exchange up. It plays a peer that
	// takes longer than --timeout, for peers with no slow tool.
	hold func(wireMsg) bool
	// expire, when it first matches a message mcpscope sent, sends it to
	// the peer with the Mcp-Session-Id unknownSession, once, so that the
	// peer answers with its own word on an expired session.
	expire func(wireMsg) bool
}

// tappedHTTP is one HTTP exchange the tap relayed.
type tappedHTTP struct {
	method    string // the HTTP method
	rpc       string // the JSON-RPC method of the body, if any
	session   string // the Mcp-Session-Id sent to the peer
	answered  string // the Mcp-Session-Id the peer answered with
	status    int    // the peer's status, 0 if it gave none
	body      string // the start of the peer's body
	abandoned bool   // mcpscope let go of the exchange whose answer was held (its connection closed)
}

// httpWiretap is the proxy. Its records are whole once its server closed.
type httpWiretap struct {
	upstream *url.URL
	hc       *http.Client
	rule     tapRule

	held sync.WaitGroup // the exchanges whose answers are held

	mu        sync.Mutex
	expired   bool
	ended     bool // mcpscope's run returned
	wire      []wireMsg
	exchanges []*tappedHTTP
}

// record appends the JSON-RPC messages of a JSON body (one message or a
// batch) to the wire; anything else is not JSON-RPC and is passed over.
func (w *httpWiretap) record(out bool, body []byte) []wireMsg {
	body = bytes.TrimSpace(body)
	var raws []json.RawMessage
	if len(body) > 0 && body[0] == '[' {
		_ = json.Unmarshal(body, &raws)
	} else if len(body) > 0 {
		raws = []json.RawMessage{body}
	}
	var msgs []wireMsg
	for _, raw := range raws {
		m := wireMsg{Raw: []byte(raw)}
		if json.Unmarshal(raw, &m) == nil && (m.Method != "" || len(m.ID) > 0) {
			m.Out = out
			msgs = append(msgs, m)
		}
	}
	w.mu.Lock()
	w.wire = append(w.wire, msgs...)
	w.mu.Unlock()
	return msgs
}

// hopHeaders are the headers of one hop that the tap does not relay.
var hopHeaders = []string{"Connection", "Keep-Alive", "Proxy-Connection", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

func (w *httpWiretap) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, tapBodyMax))
	if err != nil {
		http.Error(rw, err.Error(), http.StatusBadRequest)
		return
	}
	x := &tappedHTTP{method: r.Method}
	var held bool
	header := r.Header.Clone()
	for _, m := range w.record(true, body) {
		x.rpc = m.Method
		held = held || (w.rule.hold != nil && w.rule.hold(m))
		w.mu.Lock()
		if w.rule.expire != nil && !w.expired && w.rule.expire(m) {
			w.expired = true
			header.Set("Mcp-Session-Id", unknownSession)
		}
		w.mu.Unlock()
	}
	for _, h := range hopHeaders {
		header.Del(h)
	}
	x.session = header.Get("Mcp-Session-Id")
	if held {
		w.held.Add(1)
		defer w.held.Done()
	}
	w.mu.Lock()
	w.exchanges = append(w.exchanges, x)
	w.mu.Unlock()

	target := *w.upstream
	target.Path, target.RawPath, target.RawQuery = r.URL.Path, r.URL.RawPath, r.URL.RawQuery
	req, err := http.NewRequestWithContext(r.Context(), r.Method, target.String(), bytes.NewReader(body))
	if err != nil {
		http.Error(rw, err.Error(), http.StatusBadGateway)
		return
	}
	req.Header = header
	res, err := w.hc.Do(req)
	if err != nil {
		http.Error(rw, err.Error(), http.StatusBadGateway)
		return
	}
	defer res.Body.Close()
	for k, v := range res.Header {
		rw.Header()[k] = v
	}
	for _, h := range hopHeaders {
		rw.Header().Del(h)
	}
	rw.WriteHeader(res.StatusCode)
	flush := func() { _ = http.NewResponseController(rw).Flush() }
	flush()
	w.mu.Lock()
	x.status, x.answered = res.StatusCode, res.Header.Get("Mcp-Session-Id")
	w.mu.Unlock()
	if held {
		<-r.Context().Done()
		w.mu.Lock()
		x.abandoned = !w.ended
		w.mu.Unlock()
		return
	}
	w.relay(rw, res, x, flush)
}

// relay copies the peer's answer to mcpscope as it comes, recording the
// messages of a JSON body at its end and those of an SSE stream event by
// event, each before its last byte is relayed.
func (w *httpWiretap) relay(rw http.ResponseWriter, res *http.Response, x *tappedHTTP, flush func()) {
	mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type"))
	var events sseLines
	var pending, whole []byte
	buf := make([]byte, 32<<10)
	for {
		n, err := res.Body.Read(buf)
		chunk := buf[:n]
		if len(whole) < tapBodyMax {
			whole = append(whole, chunk[:min(n, tapBodyMax-len(whole))]...)
		}
		if mt == "text/event-stream" {
			pending = append(pending, chunk...)
			for {
				i := bytes.IndexByte(pending, '\n')
				if i < 0 {
					break
				}
				if ev, ok := events.take(string(pending[:i])); ok {
					w.record(false, []byte(ev.data))
				}
				pending = pending[i+1:]
			}
			if len(pending) > tapBodyMax {
				pending = nil // a line too long to be one of the peers' events
			}
		}
		if _, werr := rw.Write(chunk); werr != nil {
			return
		}
		flush()
		if err != nil {
			break
		}
	}
	if mt == "application/json" {
		w.record(false, whole)
	}
	w.mu.Lock()
	x.body = termtext.Ellipsis(string(whole), 200)
	w.mu.Unlock()
}

// runHTTPPeer runs mcpscope with args (command, flags, positional
// arguments) and --trace against peer, through a tap of its own, and
// checks that the trace matches what the tap saw.
func runHTTPPeer(t *testing.T, peer *peertest.HTTPPeer, args ...string) peerRun {
	t.Helper()
	p, _ := runTapped(t, peer, tapRule{}, args...)
	return p
}

// tapRunner runs mcpscope against peer through a tap, flags before the
// args of each run, and checks every run with check.
func tapRunner(peer *peertest.HTTPPeer, flags []string, check func(*testing.T, peerRun)) peerRunner {
	return func(t *testing.T, args ...string) peerRun {
		t.Helper()
		p := runHTTPPeer(t, peer, append(append([]string{}, flags...), args...)...)
		check(t, p)
		return p
	}
}

// runTapped is runHTTPPeer with a tap following rule; it also returns the
// exchanges the tap relayed.
func runTapped(t *testing.T, peer *peertest.HTTPPeer, rule tapRule, args ...string) (peerRun, []*tappedHTTP) {
	t.Helper()
	upstream, err := url.Parse(peer.URL)
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{Proxy: nil, DisableCompression: true}
	defer tr.CloseIdleConnections()
	tap := &httpWiretap{upstream: upstream, hc: &http.Client{Transport: tr}, rule: rule}
	srv := httptest.NewServer(tap)
	front := *upstream
	front.Host = strings.TrimPrefix(srv.URL, "http://")
	r := mcpscope(t, append(append(args, "--trace"), front.String())...)
	// A held exchange mcpscope gave up ends as soon as its connection
	// closes; one it left open is closed here, after heldBound.
	given := make(chan struct{})
	go func() { tap.held.Wait(); close(given) }()
	select {
	case <-given:
	case <-time.After(heldBound):
	}
	tap.mu.Lock()
	tap.ended = true
	tap.mu.Unlock()
	srv.CloseClientConnections()
	srv.Close() // every handler has returned: the records are whole

	p := peerRun{result: r, wire: tap.wire, serverStderr: strings.Split(strings.TrimSuffix(peer.Output(), "\n"), "\n")}
	p.checkTraceHTTP(t)
	return p, tap.exchanges
}

// checkTraceHTTP compares the JSON-RPC frames --trace printed with the
// messages the tap saw: the same messages out, of the same sizes (a frame
// out is a POST's body), and only messages the peer sent in, by method (a
// frame in may be a whole SSE event). mcpscope stops reading a stream it
// gave up; streams run side by side, so the order is not compared.
func (p peerRun) checkTraceHTTP(t *testing.T) {
	t.Helper()
	key := func(out bool, size int, method string) string {
		if method == "" {
			method = "(response)"
		}
		if !out {
			return method
		}
		return method + " of " + strconv.Itoa(size) + "B"
	}
	onWire := map[bool]map[string]int{true: {}, false: {}}
	for _, m := range p.wire {
		onWire[m.Out][key(m.Out, len(m.Raw), m.Method)]++
	}
	traced := map[bool]map[string]int{true: {}, false: {}}
	for _, f := range tracedControl(p.stderr) {
		kind, rest, _ := strings.Cut(f.summary, " ")
		switch kind {
		case "request", "notification":
			method, _, _ := strings.Cut(rest, " ")
			traced[f.out][key(f.out, f.size, method)]++
		case "result", "error":
			traced[f.out][key(f.out, f.size, "")]++
		}
	}
	if len(traced[true]) == 0 {
		t.Fatalf("--trace printed no outgoing message:\n%s", p.stderr)
	}
	for k, n := range onWire[true] {
		if traced[true][k] != n {
			t.Errorf("the peer got %d %s, --trace shows %d", n, k, traced[true][k])
		}
	}
	for k, n := range traced[true] {
		if onWire[true][k] == 0 {
			t.Errorf("--trace shows %d outgoing %s the peer never got", n, k)
		}
	}
	for k, n := range traced[false] {
		if onWire[false][k] < n {
			t.Errorf("--trace shows %d incoming %s, the peer sent %d", n, k, onWire[false][k])
		}
	}
}
