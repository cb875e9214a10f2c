package mcphttp

import (
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/tlscert"
	"github.com/mcpscope/mcpscope/internal/app/tlsconf"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// newTLSFake starts a fake over HTTPS with a self-signed certificate,
// speaking HTTP/2 when h2 is set.
func newTLSFake(t *testing.T, h2 bool) (*fake, string) {
	f := newFakeServer(t, func(h http.Handler) *httptest.Server {
		srv := httptest.NewUnstartedServer(h)
		srv.EnableHTTP2 = h2
		srv.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are the point
		srv.StartTLS()
		return srv
	})
	return f, tlscert.Hash(f.srv.Certificate().Raw)
}

// A self-signed server is refused by default, with the hash to pin it by.
func TestTLSUntrustedCertificateNamesItsHash(t *testing.T) {
	noLeaks(t)
	f, hash := newTLSFake(t, false)
	r := newRig(t, f.URL(), nil)
	err := r.tr.Send(t.Context(), request(t, 1, mcp.MethodPing, nil))
	var u *tlsconf.UntrustedCertificateError
	if !errors.As(err, &u) || u.Hash != hash || !strings.Contains(err.Error(), "--cert-hash "+hash) {
		t.Fatalf("Send = %v, want the untrusted certificate with hash %s", err, hash)
	}
	if n := len(f.requests(nil)); n != 0 {
		t.Errorf("%d requests reached the server", n)
	}
}

// A pinned certificate or --insecure lets the session run, over HTTP/1.1
// and HTTP/2 alike, with SSE answers.
func TestTLSPinnedOrInsecure(t *testing.T) {
	for _, h2 := range []bool{false, true} {
		for _, pin := range []bool{true, false} {
			name := map[bool]string{true: "pinned", false: "insecure"}[pin] + map[bool]string{true: " h2", false: " h1"}[h2]
			t.Run(name, func(t *testing.T) {
				noLeaks(t)
				f, hash := newTLSFake(t, h2)
				f.on(mcp.MethodToolsCall, func(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
					if h2 != (r.ProtoMajor == 2) {
						t.Errorf("served over %s", r.Proto)
					}
					put := openSSE(w)
					put("id: 1\ndata:\n\n")
					put(event("2", resultOf(m, `{"content":[]}`)))
				})
				s := connect(t, f.URL(), func(c *Config) {
					if pin {
						c.CertHashes = []string{hash}
					} else {
						c.Insecure = true
					}
				}, client.Options{ProtocolVersion: mcp.ProtocolVersion20251125})
				if _, err := s.call(mcp.MethodToolsCall, map[string]any{"name": "x"}); err != nil {
					t.Fatalf("tools/call: %v", err)
				}
			})
		}
	}
}

// A pin that does not match refuses the server, saying both hashes.
func TestTLSWrongPin(t *testing.T) {
	f, hash := newTLSFake(t, false)
	wrong := "sha256:" + strings.Repeat("ab", 32)
	r := newRig(t, f.URL(), func(c *Config) { c.CertHashes = []string{wrong} })
	err := r.tr.Send(t.Context(), request(t, 1, mcp.MethodPing, nil))
	var mismatch *tlsconf.CertHashMismatchError
	if !errors.As(err, &mismatch) || mismatch.Got != hash {
		t.Fatalf("Send = %v", err)
	}
}

// TLS options on an http:// URL are a mistake New reports.
func TestTLSOptionsNeedHTTPS(t *testing.T) {
	if _, err := New(Config{URL: "http://127.0.0.1:1/mcp", Client: httpconf.Client{Insecure: true}}); err == nil || !strings.Contains(err.Error(), "https://") {
		t.Fatalf("New = %v", err)
	}
	if _, err := New(Config{URL: "ftp://x/"}); err == nil {
		t.Fatal("New accepted ftp://")
	}
}

// --keylog appends the TLS secrets in NSS key log format.
func TestTLSKeyLog(t *testing.T) {
	f, _ := newTLSFake(t, false)
	path := filepath.Join(t.TempDir(), "keys.log")
	r := newRig(t, f.URL(), func(c *Config) { c.Insecure, c.KeyLogFile = true, path })
	r.send(t, request(t, 1, mcp.MethodPing, nil))
	r.in.next(t)
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), "CLIENT_") {
		t.Fatalf("key log %q (%v)", b, err)
	}
}
