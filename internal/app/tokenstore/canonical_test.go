package tokenstore

import (
	"strings"
	"testing"
)

func TestCanonical(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://mcp.example.com/mcp", "https://mcp.example.com/mcp"},
		{"HTTPS://Example.COM:443/mcp/", "https://example.com/mcp"},
		{"https://mcp.example.com/", "https://mcp.example.com"},
		{"https://mcp.example.com", "https://mcp.example.com"},
		{"https://mcp.example.com:8443", "https://mcp.example.com:8443"},
		{"https://mcp.example.com:8443/", "https://mcp.example.com:8443"},
		{"http://localhost:80/mcp", "http://localhost/mcp"},
		{"http://localhost:443/mcp", "http://localhost:443/mcp"},
		{"https://localhost:80/mcp", "https://localhost:80/mcp"},
		{"http://127.0.0.1:3000/mcp", "http://127.0.0.1:3000/mcp"},
		{"wss://Example.com:443/ws", "wss://example.com/ws"},
		{"ws://example.com:80/ws", "ws://example.com/ws"},
		{"https://[::1]:443/mcp", "https://[::1]/mcp"},
		{"https://[::1]:8443/mcp", "https://[::1]:8443/mcp"},
		{"https://example.com:/mcp", "https://example.com/mcp"},
		{"https://mcp.example.com/server/mcp//", "https://mcp.example.com/server/mcp"},
		{"https://mcp.example.com/Server/MCP", "https://mcp.example.com/Server/MCP"}, // the path keeps its case
		{"https://mcp.example.com/mcp#fragment", "https://mcp.example.com/mcp"},
		{"https://mcp.example.com/mcp?tenant=a", "https://mcp.example.com/mcp?tenant=a"},
		{"https://mcp.example.com/mcp/?tenant=a#x", "https://mcp.example.com/mcp?tenant=a"},
		{"https://mcp.example.com/mcp?", "https://mcp.example.com/mcp"},
		{"https://mcp.example.com/a%2Fb", "https://mcp.example.com/a%2Fb"},
		{"  https://mcp.example.com/mcp\n", "https://mcp.example.com/mcp"},
	} {
		got, err := Canonical(c.in)
		if err != nil || got != c.want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestCanonicalRefuses(t *testing.T) {
	for _, in := range []string{
		"", "mcp.example.com", "/mcp", "https://", "https:///mcp", "https://:443/mcp",
		"https:mcp.example.com", "https://exa mple.com/", "https://user:hunter2@example.com/mcp",
		"https://user@example.com/mcp", "http://[::1/mcp", "ht%tp://example.com",
	} {
		got, err := Canonical(in)
		if err == nil {
			t.Errorf("Canonical(%q) = %q, want an error", in, got)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("Canonical(%q) error repeats the password: %v", in, err)
		}
	}
}

// Canonical is idempotent: a canonical URI is its own canonical form.
func TestCanonicalIdempotent(t *testing.T) {
	for _, in := range []string{"HTTPS://Example.COM:443/mcp/", "https://x.example/a%2Fb/?q=1", "wss://[::1]:443/"} {
		once, err := Canonical(in)
		if err != nil {
			t.Fatal(err)
		}
		if twice, err := Canonical(once); err != nil || twice != once {
			t.Errorf("Canonical(%q) = %q, %v; want it unchanged", once, twice, err)
		}
	}
}
