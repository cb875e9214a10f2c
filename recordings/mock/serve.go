package mock

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"
)

// Timeouts of Serve's HTTP server.
const (
	readHeaderTimeout = 10 * time.Second
	shutdownGrace     = 2 * time.Second
)

// Serve serves h on ln until ctx ends; the requests' contexts end with
// it, so a WebSocket connection ends too. It closes ln.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	base, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := &http.Server{Handler: h, ReadHeaderTimeout: readHeaderTimeout, BaseContext: func(net.Listener) context.Context { return base }}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serving on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	cancel()
	sctx, stop := context.WithTimeout(context.Background(), shutdownGrace)
	defer stop()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serving on %s: %w", ln.Addr(), err)
	}
	return nil
}

// EndpointURL is the URL of Path on a listening address with scheme
// (http or ws); a wildcard host is shown as 127.0.0.1.
func EndpointURL(scheme string, addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return scheme + "://" + addr.String() + Path
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return (&url.URL{Scheme: scheme, Host: net.JoinHostPort(host, port), Path: Path}).String()
}
