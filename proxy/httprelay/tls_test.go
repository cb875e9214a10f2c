package httprelay

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/tlscert"
)

// The server's certificate is verified by default: a self-signed one
// gets the host a 502 that says how to pin it, and pinned by its hash
// (--cert-hash) the relay reaches it.
func TestProxyHTTPUpstreamTLS(t *testing.T) {
	up := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}))
	defer up.Close()
	hash := tlscert.Hash(up.Certificate().Raw)

	p := startRelay(t, up.URL+"/mcp", Options{})
	rsp := post(t, p.URL, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, nil)
	b, _ := io.ReadAll(rsp.Body)
	if rsp.StatusCode != http.StatusBadGateway || !strings.Contains(string(b), "--cert-hash "+hash) {
		t.Fatalf("an untrusted server: the host got %s %q", rsp.Status, b)
	}

	pinned := startRelayTLS(t, up.URL+"/mcp", Options{}, TLS{CertHashes: []string{hash}})
	rsp = post(t, pinned.URL, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, nil)
	b, _ = io.ReadAll(rsp.Body)
	if rsp.StatusCode != http.StatusOK || string(b) != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Fatalf("a pinned server: the host got %s %q", rsp.Status, b)
	}
}
