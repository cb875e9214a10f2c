package cli

import (
	"io"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/demo"
	demows "github.com/mcpscope/mcpscope/demo/ws"
	"github.com/mcpscope/mcpscope/internal/app/tlscert"
)

// demoWSS serves the demo's WebSocket endpoints over TLS on 127.0.0.1 with
// a self-signed certificate; it returns wss://HOST:PORT and the pin of the
// certificate.
func demoWSS(t *testing.T) (base, hash string) {
	t.Helper()
	core, err := demo.New(demo.Options{SandboxRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = core.Close() })
	h := demows.New(core, demows.Options{})
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are the point
	srv.StartTLS()
	t.Cleanup(srv.Close)
	t.Cleanup(h.Close) // before srv.Close: the upgraded connections are the handler's
	return "wss" + strings.TrimPrefix(srv.URL, "https"), tlscert.Hash(srv.Certificate().Raw)
}

// `mcpscope tools wss://…` against a self-signed server: refused without a
// flag, naming the hash to pin; --cert-hash with that hash lists the
// tools; a wrong pin is refused naming both; --insecure connects with its
// warning; --keylog writes the session's TLS secrets.
func TestWSSCertificatePinning(t *testing.T) {
	t.Parallel()
	base, hash := demoWSS(t)
	url := base + demows.PathMCP

	r := mcpscope(t, "tools", url)
	r.mustExit(t, ExitConnection)
	checkStderrLines(t, r, false)
	if !strings.Contains(r.stderr, "not trusted") || !strings.Contains(r.stderr, "--cert-hash "+hash) || r.stdout != "" {
		t.Fatalf("no flag: stdout %q, stderr %s", r.stdout, r.stderr)
	}

	keys := filepath.Join(t.TempDir(), "keys.log")
	r = mcpscope(t, "tools", "--cert-hash", hash, "--keylog", keys, url)
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, `"echo"`) || r.stderr != "" {
		t.Fatalf("pinned: stdout %s, stderr %s", r.stdout, r.stderr)
	}
	if b, err := os.ReadFile(keys); err != nil || !strings.Contains(string(b), "CLIENT_TRAFFIC_SECRET_0 ") {
		t.Errorf("--keylog wrote %q (%v)", b, err)
	}

	wrong := "sha256:" + strings.Repeat("ab", 32)
	r = mcpscope(t, "tools", "--cert-hash", wrong, url)
	r.mustExit(t, ExitConnection)
	if !strings.Contains(r.stderr, "has hash "+hash) || !strings.Contains(r.stderr, "does not match the pinned "+wrong) || r.stdout != "" {
		t.Fatalf("wrong pin: stdout %q, stderr %s", r.stdout, r.stderr)
	}

	r = mcpscope(t, "tools", "--insecure", url)
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, `"echo"`) || !strings.HasPrefix(r.stderr, "WARNING: --insecure: the server certificate is NOT verified") {
		t.Fatalf("insecure: stdout %s, stderr %s", r.stdout, r.stderr)
	}
}

// A pinned wss:// server answers a call over an MCP session and over seed
// 004's tool frames alike.
func TestWSSPinnedCall(t *testing.T) {
	t.Parallel()
	base, hash := demoWSS(t)
	for transport, path := range map[string]string{"ws": demows.PathMCP, "tools-ws": demows.PathTools} {
		r := mcpscope(t, "call", "--transport", transport, "--cert-hash", hash, "tools/call",
			callTool(t, "echo", map[string]any{"message": "over wss " + transport}), base+path)
		if got := toolText(t, r); !strings.Contains(got, "over wss "+transport) {
			t.Errorf("%s: %q", transport, got)
		}
	}
}
