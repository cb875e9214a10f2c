package demohttp

import (
	"context"
	"net"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/internal/app/listen"
)

// Serve serves the demo core over plain HTTP on ln until ctx is done:
// then the sessions end (their streams close, their calls are cancelled)
// and the server shuts down within a short grace. It closes ln.
func Serve(ctx context.Context, core *demo.Server, ln net.Listener, opts Options) error {
	h := New(core, opts)
	return listen.Serve(ctx, ln, h, nil, h.Close, "HTTP")
}

// URLs are the endpoints of a Handler served at base (http://HOST:PORT).
type URLs struct {
	MCP, SSE, SSEAbsolute, Tools string
}

// EndpointURLs returns the endpoints under base; a wildcard host of an
// address becomes 127.0.0.1 (see BaseURL).
func EndpointURLs(base string) URLs {
	return URLs{MCP: base + PathMCP, SSE: base + PathSSE, SSEAbsolute: base + PathSSEAbsolute, Tools: base + PathTools}
}

// BaseURL is http://HOST:PORT of a listening address, with a wildcard host
// shown as 127.0.0.1.
func BaseURL(addr net.Addr) string { return listen.BaseURL("http", addr) }
