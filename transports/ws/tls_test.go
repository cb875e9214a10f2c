package ws

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/internal/app/tlscert"
	"github.com/mcpscope/mcpscope/internal/app/tlsconf"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// tlsPeer is a wss:// server with httptest's self-signed certificate that
// answers every JSON-RPC request with an empty result.
type tlsPeer struct {
	*peer
	hash string // the pin of its certificate
	cert *x509.Certificate
}

// startTLSPeer serves wss:// on 127.0.0.1.
func startTLSPeer(t *testing.T) *tlsPeer {
	t.Helper()
	p := &tlsPeer{peer: &peer{}}
	srv := httptest.NewUnstartedServer(p.handler([]string{Subprotocol}, answerEvery))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are the point
	srv.StartTLS()
	t.Cleanup(srv.Close)
	p.cert = srv.Certificate()
	p.hash = tlscert.Hash(p.cert.Raw)
	p.url = "wss" + strings.TrimPrefix(srv.URL, "https") + "/mcp"
	return p
}

// answerEvery answers every request read on c with an empty result.
func answerEvery(ctx context.Context, c *websocket.Conn) {
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(data, &m) != nil || m.ID == nil {
			continue
		}
		if c.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":{}}`)) != nil {
			return
		}
	}
}

// noUpgrade fails if an upgrade request reached the server.
func (p *tlsPeer) noUpgrade(t *testing.T) {
	t.Helper()
	if r := p.request(); r != nil {
		t.Errorf("an upgrade request reached the server: %s %s", r.Method, r.URL)
	}
}

// start dials cfg and returns the error of Start; the transport is closed
// at cleanup.
func start(t *testing.T, cfg Config) (*Transport, chan *jsonrpc.Message, error) {
	t.Helper()
	tr, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tr.Close() })
	got := make(chan *jsonrpc.Message, 8)
	return tr, got, tr.Start(ctxT(t), func(m *jsonrpc.Message) { got <- m })
}

// pingOver sends a ping and waits for its answer.
func pingOver(t *testing.T, tr *Transport, got chan *jsonrpc.Message) {
	t.Helper()
	if err := tr.Send(ctxT(t), request(t, 1, mcp.MethodPing, nil)); err != nil {
		t.Fatalf("Send: %v", err)
	}
	if m := next(t, got); m.Kind() != jsonrpc.KindResult {
		t.Fatalf("answer %+v", m)
	}
}

// A self-signed wss:// server is refused by default, before any upgrade,
// with an error that names the hash to pin it by.
func TestTLSUntrustedCertificateNamesItsHash(t *testing.T) {
	p := startTLSPeer(t)
	_, _, err := start(t, Config{URL: p.url})
	var u *tlsconf.UntrustedCertificateError
	if !errors.As(err, &u) || u.Hash != p.hash || !strings.Contains(err.Error(), "--cert-hash "+p.hash) {
		t.Fatalf("Start = %v, want the untrusted certificate with hash %s", err, p.hash)
	}
	p.noUpgrade(t)
}

// Pinning the server's certificate, trusting its authority, or skipping
// verification each lets the session run over wss://.
func TestTLSPinnedTrustedOrInsecure(t *testing.T) {
	for name, set := range map[string]func(*Config, *tlsPeer){
		"pinned": func(c *Config, p *tlsPeer) { c.CertHashes = []string{p.hash} },
		"pinned among others": func(c *Config, p *tlsPeer) {
			c.CertHashes = []string{"sha256:" + strings.Repeat("cd", 32), p.hash}
		},
		"root CA": func(c *Config, p *tlsPeer) {
			c.RootCAs = x509.NewCertPool()
			c.RootCAs.AddCert(p.cert)
		},
		"insecure": func(c *Config, _ *tlsPeer) { c.Insecure = true },
	} {
		t.Run(name, func(t *testing.T) {
			p := startTLSPeer(t)
			cfg := Config{URL: p.url}
			set(&cfg, p)
			tr, got, err := start(t, cfg)
			if err != nil {
				t.Fatalf("Start: %v", err)
			}
			pingOver(t, tr, got)
			if ls := tr.LinkState(); ls.Transport != "WebSocket (mcp)" {
				t.Errorf("link state %+v", ls)
			}
		})
	}
}

// A pin that does not match refuses the server, saying both hashes.
func TestTLSWrongPin(t *testing.T) {
	p := startTLSPeer(t)
	wrong := "sha256:" + strings.Repeat("ab", 32)
	_, _, err := start(t, Config{URL: p.url, Client: httpconf.Client{CertHashes: []string{wrong}}})
	var mismatch *tlsconf.CertHashMismatchError
	if !errors.As(err, &mismatch) || mismatch.Got != p.hash ||
		!strings.Contains(err.Error(), p.hash) || !strings.Contains(err.Error(), wrong) {
		t.Fatalf("Start = %v, want a mismatch naming %s and %s", err, p.hash, wrong)
	}
	p.noUpgrade(t)
}

// A malformed pin is refused before any connection.
func TestTLSMalformedPin(t *testing.T) {
	p := startTLSPeer(t)
	_, _, err := start(t, Config{URL: p.url, Client: httpconf.Client{CertHashes: []string{"sha256:nothex"}}})
	if err == nil || !strings.Contains(err.Error(), "64 hex digits") {
		t.Fatalf("Start = %v", err)
	}
	p.noUpgrade(t)
}

// KeyLogFile receives the session's TLS secrets in NSS key log format.
func TestTLSKeyLog(t *testing.T) {
	p := startTLSPeer(t)
	path := filepath.Join(t.TempDir(), "keys.log")
	tr, got, err := start(t, Config{URL: p.url, Client: httpconf.Client{CertHashes: []string{p.hash}, KeyLogFile: path}})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	pingOver(t, tr, got)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Every line is LABEL CLIENT_RANDOM SECRET, the random 32 bytes in hex.
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if f := strings.Fields(l); len(f) != 3 || len(f[1]) != 64 || !strings.HasSuffix(f[0], "_SECRET") && !strings.HasSuffix(f[0], "_SECRET_0") {
			t.Fatalf("key log line %q is not in NSS key log format", l)
		}
	}
	if !strings.Contains(string(b), "CLIENT_TRAFFIC_SECRET_0 ") {
		t.Fatalf("key log %q holds no client traffic secret", b)
	}
}

// TestTLSOptionsNeedWSS: pins, --insecure and --keylog on a ws:// URL are
// a mistake said at once, not options silently ignored.
func TestTLSOptionsNeedWSS(t *testing.T) {
	for _, cfg := range []Config{
		{URL: "ws://127.0.0.1:1/mcp", Client: httpconf.Client{Insecure: true}},
		{URL: "ws://127.0.0.1:1/mcp", Client: httpconf.Client{CertHashes: []string{"sha256:00"}}},
		{URL: "ws://127.0.0.1:1/mcp", Client: httpconf.Client{KeyLogFile: "keys.log"}},
	} {
		if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "wss://") {
			t.Errorf("New(%+v) = %v", cfg, err)
		}
	}
}
