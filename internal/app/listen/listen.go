// Package listen serves an http.Handler on a listener until a context
// ends, and names the URL of a listening address: the one loop the demo
// server and the mock share.
package listen

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Timeouts of Serve's HTTP server.
const (
	readHeaderTimeout = 10 * time.Second
	shutdownGrace     = 2 * time.Second
)

// Serve serves h on ln until ctx is done: then end runs (it ends what the
// handler holds open: sessions, streams, WebSocket connections) and the
// server shuts down within a short grace. base, when not nil, is the
// context requests derive from (end may cancel it to end them). It
// closes ln; what names the protocol in errors ("HTTP", "WebSocket").
func Serve(ctx context.Context, ln net.Listener, h http.Handler, base context.Context, end func(), what string) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: readHeaderTimeout}
	if base != nil {
		srv.BaseContext = func(net.Listener) context.Context { return base }
	}
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

// BaseURL is SCHEME://HOST:PORT of a listening address, with a wildcard
// host shown as 127.0.0.1.
func BaseURL(scheme string, addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return scheme + "://" + addr.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}
