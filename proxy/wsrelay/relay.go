package wsrelay

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/tlsconf"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proxy"
)

// Options configures a Relay.
type Options struct {
	// Upstream is the server's ws:// or wss:// URL; a host's connection
	// goes to its scheme and host, on the path (and query) the host asked.
	Upstream string
	// Gateway relays seed 003's gateway streams (--transport gateway).
	Gateway bool
	// CertHashes pins the server's certificate ("sha256:HEX").
	CertHashes []string
	// Insecure skips verifying the server's certificate.
	Insecure bool
	// RootCAs verifies the server (nil: the system roots).
	RootCAs *x509.CertPool
	// MaxMessage is the largest message read from either side (0:
	// flow.DefaultMaxControlFrame); a larger one closes both with 1009.
	MaxMessage int
	// NoRedact keeps credentials in the captured upgrade heads.
	NoRedact bool
}

// Relay relays the WebSocket connections of hosts to one server.
type Relay struct {
	sess *proxy.Session
	opt  Options
	base *url.URL
	hc   *http.Client

	links *proxy.Conns[*link] // open links: the newest carries injections
	wg    sync.WaitGroup
}

// New returns a relay of sess to opt.Upstream, and registers it as the
// session's way to the server for injected requests.
func New(sess *proxy.Session, opt Options) (*Relay, error) {
	u, err := url.Parse(opt.Upstream)
	if err != nil {
		return nil, fmt.Errorf("the WebSocket URL %q: %w", opt.Upstream, err)
	}
	if (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
		return nil, fmt.Errorf("the WebSocket URL %q must be ws://HOST… or wss://HOST…", opt.Upstream)
	}
	if opt.MaxMessage <= 0 {
		opt.MaxMessage = flow.DefaultMaxControlFrame
	}
	tc, err := tlsconf.Config(tlsconf.Options{
		ServerName: u.Hostname(), CertHashes: opt.CertHashes, Insecure: opt.Insecure,
		RootCAs: opt.RootCAs, NextProtos: []string{"http/1.1"},
	}, nil)
	if err != nil {
		return nil, err
	}
	r := &Relay{sess: sess, opt: opt, base: u, links: proxy.NewConns[*link]("ws"), hc: &http.Client{
		Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			DialContext:         (&net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}).DialContext,
			TLSClientConfig:     tc,
			TLSHandshakeTimeout: dialTimeout,
			DisableCompression:  true,
			DisableKeepAlives:   true,
		},
		CheckRedirect: func(req *http.Request, _ []*http.Request) error {
			return fmt.Errorf("the upgrade was redirected to %s, which a WebSocket upgrade does not follow", req.URL.Redacted())
		},
	}}
	sess.SetInjector(r.inject)
	return r, nil
}

// dialTimeout bounds reaching the server for one host connection.
const dialTimeout = 30 * time.Second

// Serve accepts hosts' connections on ln until ctx ends, then closes
// every open link and waits for them.
func (r *Relay) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           r,
		ReadHeaderTimeout: dialTimeout,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	var err error
	select {
	case <-ctx.Done():
		_ = srv.Close()
		<-served
	case err = <-served:
	}
	r.closeAll("the proxy stopped")
	r.wg.Wait()
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// LocalURL is the URL a host uses to reach the server through a proxy
// listening on addr: ws:// with the upstream's path. The upstream's query,
// which may hold a credential, is not in it: the proxy adds it to a host's
// request that has none.
func (r *Relay) LocalURL(addr net.Addr) string {
	u := *r.base
	u.Scheme, u.Host, u.User, u.RawQuery = "ws", addr.String(), nil, ""
	return u.String()
}

// inject writes an injected request to the server on the newest link
// that runs.
func (r *Relay) inject(ctx context.Context, body []byte) error {
	l, ok := r.links.Newest((*link).running)
	if !ok {
		return proxy.ErrNoServerPath
	}
	return l.write(ctx, l.upstream(), textMessage, body)
}

// opened names and registers a new link.
func (r *Relay) opened(l *link) { l.conn = r.links.Opened(l) }

// closed forgets a link.
func (r *Relay) closed(l *link) { r.links.Closed(l) }

// closeAll closes every open link, saying why.
func (r *Relay) closeAll(why string) {
	for _, l := range r.links.All() {
		l.Cut(why)
	}
}
