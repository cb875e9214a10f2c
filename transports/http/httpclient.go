package mcphttp

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/transports/internal/tlsconf"
)

// maxRedirects bounds the redirects one request follows.
const maxRedirects = 5

// newClient builds the HTTP client: TLS verified by default, pinned or
// skipped only when asked; no overall timeout (a stream lives as long as
// the engine waits); credentials dropped on a redirect to another origin.
func (t *Transport) newClient(keyLog io.Writer) (*http.Client, error) {
	tc, err := tlsconf.Config(tlsconf.Options{
		ServerName: t.url.Hostname(),
		CertHashes: t.cfg.CertHashes,
		Insecure:   t.cfg.Insecure,
		RootCAs:    t.cfg.RootCAs,
	}, keyLog)
	if err != nil {
		return nil, err
	}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSClientConfig:       tc,
		ForceAttemptHTTP2:     true,
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		DisableCompression:    true, // the capture shows the bytes as sent
	}
	return &http.Client{Transport: tr, CheckRedirect: t.checkRedirect}, nil
}

// errTooManyRedirects ends a redirect chain.
var errTooManyRedirects = errors.New("stopped after 5 redirects")

// connKey carries an exchange's connection name in its request's
// context, for the capture of its redirects.
type connKey struct{}

// withConn returns ctx naming the connection conn.
func withConn(ctx context.Context, conn string) context.Context {
	return context.WithValue(ctx, connKey{}, conn)
}

// checkRedirect captures each redirect, the 3xx that asked for it and
// the request that follows, and strips every credential and every header
// the user added when the redirect leaves the origin.
func (t *Transport) checkRedirect(req *http.Request, via []*http.Request) error {
	conn, _ := req.Context().Value(connKey{}).(string)
	if req.Response != nil {
		t.reportResponse(conn, req.Response)
	}
	if len(via) >= maxRedirects {
		return errTooManyRedirects
	}
	first := via[0].URL
	if req.URL.Scheme != first.Scheme || req.URL.Host != first.Host {
		for name := range req.Header {
			if proto.SecretHeader(name) || t.cfg.Header.Get(name) != "" {
				req.Header.Del(name)
			}
		}
	}
	t.reportRequest(conn, req)
	return nil
}
