// Package serve runs a demo server's http.Handler on a listener until its
// context ends: the one loop `mcpscope serve --http` and `--ws` share.
package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Timeouts of Run's HTTP server.
const (
	readHeaderTimeout = 10 * time.Second
	shutdownGrace     = 2 * time.Second
)

// Run serves h on ln until ctx is done: then end runs (it ends what the
// handler holds open: sessions, streams, WebSocket connections) and the
// server shuts down within a short grace. It closes ln; what names the
// protocol in errors ("HTTP", "WebSocket").
func Run(ctx context.Context, ln net.Listener, h http.Handler, end func(), what string) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: readHeaderTimeout}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		end()
		return fmt.Errorf("serving %s on %s: %w", what, ln.Addr(), err)
	case <-ctx.Done():
	}
	end()
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serving %s on %s: %w", what, ln.Addr(), err)
	}
	return nil
}
