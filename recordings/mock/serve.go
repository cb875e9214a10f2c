package mock

import (
	"context"
	"net"
	"net/http"

	"github.com/mcpscope/mcpscope/internal/app/listen"
)

// Serve serves h on ln until ctx ends; the requests' contexts end with
// it, so a WebSocket connection ends too. It closes ln.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	base, cancel := context.WithCancel(context.Background())
	defer cancel()
	return listen.Serve(ctx, ln, h, base, cancel, "the mock")
}

// EndpointURL is the URL of Path on a listening address with scheme
// (http or ws); a wildcard host is shown as 127.0.0.1.
func EndpointURL(scheme string, addr net.Addr) string {
	return listen.BaseURL(scheme, addr) + Path
}
