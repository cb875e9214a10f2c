package httprelay

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// wiretap stands between the relay and the server and keeps the bytes of
// every POST and of its answer, as they crossed the wire.
type wiretap struct {
	up      *url.URL
	rt      http.RoundTripper
	mu      sync.Mutex
	posts   [][]byte
	answers [][]byte
}

func newWiretap(t *testing.T, upstream string) (*wiretap, string) {
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	w := &wiretap{up: u, rt: &http.Transport{DisableCompression: true}}
	srv := httptest.NewServer(w)
	t.Cleanup(srv.Close)
	return w, srv.URL + u.RequestURI()
}

func (w *wiretap) ServeHTTP(rw http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	target := *w.up
	target.Path, target.RawQuery = req.URL.Path, req.URL.RawQuery
	out, _ := http.NewRequestWithContext(req.Context(), req.Method, target.String(), bytes.NewReader(body))
	out.Header = req.Header.Clone()
	rsp, err := w.rt.RoundTrip(out)
	if err != nil {
		rw.WriteHeader(http.StatusBadGateway)
		return
	}
	defer rsp.Body.Close()
	for k, v := range rsp.Header {
		rw.Header()[k] = v
	}
	rw.WriteHeader(rsp.StatusCode)
	var got bytes.Buffer
	buf := make([]byte, 4096)
	for {
		n, err := rsp.Body.Read(buf)
		if n > 0 {
			got.Write(buf[:n])
			flush(rw, string(buf[:n]))
		}
		if err != nil {
			break
		}
	}
	if req.Method == http.MethodPost {
		w.mu.Lock()
		w.posts = append(w.posts, body)
		w.answers = append(w.answers, got.Bytes())
		w.mu.Unlock()
	}
}

// hostRun is what the official Go SDK client, as the host, gets from a
// server: its tools and the answer of one call.
func hostRun(t *testing.T, endpoint, tool string, args map[string]any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connecting to %s: %v", endpoint, err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal([]any{tools, res})
	return string(b)
}

// The official Go SDK client, as the host, gets through the relay what it
// gets without it, and the recording holds every POST body and every
// byte of each answer as they crossed the wire.
func TestProxyHTTPGoSDKHost(t *testing.T) {
	cases := []struct {
		name  string
		start func(testing.TB) *peertest.HTTPPeer
		tool  string
		args  map[string]any
	}{
		{"ts", peertest.StartTSStreamableHTTP, "echo", map[string]any{"message": "hi"}},
		{"gosdk", peertest.StartGoSDKEverythingHTTP, "greet", map[string]any{"name": "Ada"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			peer := c.start(t)
			tap, tapURL := newWiretap(t, peer.URL)
			p := startRelay(t, tapURL, Options{})
			direct := hostRun(t, peer.URL, c.tool, c.args)
			through := hostRun(t, p.URL, c.tool, c.args)
			if direct != through {
				t.Fatalf("through the proxy the host got\n%s\nwithout it\n%s", through, direct)
			}
			frames := p.frames(t)
			tap.mu.Lock()
			defer tap.mu.Unlock()
			if len(tap.posts) < 3 {
				t.Fatalf("the server saw %d POSTs", len(tap.posts))
			}
			checkBytes(t, frames, tap.posts, tap.answers)
		})
	}
}

// checkBytes checks that each POST body is the bytes of one host→server
// frame, and that each non-empty answer is the bytes of the server→host
// frames of one exchange, end to end.
func checkBytes(t *testing.T, frames []*capture.Frame, posts, answers [][]byte) {
	t.Helper()
	out := map[string]int{}
	in := map[string][]byte{}
	for _, f := range frames {
		if f.Chan.Kind != capture.Control {
			continue
		}
		if f.Dir == capture.Out {
			out[string(f.Raw)]++
		} else {
			in[f.Conn] = append(in[f.Conn], f.Raw...)
		}
	}
	for _, b := range posts {
		if out[string(b)] == 0 {
			t.Errorf("no host→server frame holds the POST body %q byte for byte", b)
		}
		out[string(b)]--
	}
	ins := map[string]bool{}
	for _, b := range in {
		ins[string(b)] = true
	}
	for _, b := range answers {
		if len(b) > 0 && !ins[string(b)] {
			t.Errorf("no exchange's server→host frames hold the answer %q byte for byte", b)
		}
	}
}
