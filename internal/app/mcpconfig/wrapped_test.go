package mcpconfig

import (
	"slices"
	"testing"
)

// A wrapped entry's command line names the proxied server: a stdio one
// after --, a remote one as the bridge's URL with its headers and
// transport. A --listen endpoint, another program or a broken line is not
// a wrapped entry.
func TestParseProxied(t *testing.T) {
	p, ok := ParseProxied("/opt/homebrew/bin/mcpscope", []string{"proxy", "--name", "fs", "--no-redact", "--", "npx", "-y", "srv"})
	if !ok || p.Session != "fs" || !slices.Equal(p.Argv, []string{"npx", "-y", "srv"}) {
		t.Errorf("stdio: %+v %v", p, ok)
	}
	p, ok = ParseProxied(`C:\Tools\MCPSCOPE.EXE`, []string{"proxy", "--name=r", "--transport", "sse", "--header", "Authorization: Bearer x", "https://h/sse"})
	if !ok || p.Session != "r" || p.Transport != "sse" || p.URL != "https://h/sse" || len(p.Headers) != 1 || p.Headers[0] != (Pair{"Authorization", "Bearer x"}) {
		t.Errorf("bridge: %+v %v", p, ok)
	}
	for _, c := range [][]string{
		{"mcpscope", "proxy", "--listen", "127.0.0.1:7000", "https://h/mcp"},
		{"npx", "proxy", "--", "x"},
		{"mcpscope", "tools", "--", "x"},
		{"mcpscope", "proxy", "--name"},
		{"mcpscope", "proxy", "--"},
		{"mcpscope", "proxy", "https://a", "https://b"},
	} {
		if p, ok := ParseProxied(c[0], c[1:]); ok {
			t.Errorf("%q is read as wrapped: %+v", c, p)
		}
	}
}

// Loading a wrapped entry gives the server it proxies, marked wrapped.
func TestLoadUnwrapsProxiedEntries(t *testing.T) {
	data := []byte(`{"mcpServers":{"a":{"command":"/usr/bin/mcpscope","args":["proxy","--name","a","--","node","s.js"],"env":{"K":"V"}},` +
		`"b":{"type":"stdio","command":"mcpscope","args":["proxy","--name","b","https://h/mcp"]}}}`)
	servers, errs := Parse(Candidate{Path: "x.json", Format: ClaudeCode}, data, "")
	if len(errs) > 0 || len(servers) != 2 {
		t.Fatalf("%+v %v", servers, errs)
	}
	a, b := servers[0], servers[1]
	if !a.Wrapped || a.ProxyName != "a" || a.Transport != "stdio" || a.Command != "node" || !slices.Equal(a.Args, []string{"s.js"}) || len(a.Env) != 1 {
		t.Errorf("a: %+v", a)
	}
	if !b.Wrapped || b.ProxyName != "b" || b.Transport != "http" || b.URL != "https://h/mcp" || b.Command != "" {
		t.Errorf("b: %+v", b)
	}
}
