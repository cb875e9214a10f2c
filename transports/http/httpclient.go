package mcphttp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/bearer"
	"github.com/mcpscope/mcpscope/internal/app/tlsconf"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// maxRedirects bounds the redirects one request follows.
const maxRedirects = 5

// IdleConnsPerHost is how many idle connections to the server the
// transport keeps alive: as many as the engine keeps requests in flight by
// default, so that pipelined requests go out on connections already open
// instead of opening new ones once the burst before them is answered.
const IdleConnsPerHost = client.DefaultMaxInFlight

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
		MaxIdleConnsPerHost:   IdleConnsPerHost,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		DisableCompression:    true, // the capture shows the bytes as sent
	}
	if t.cfg.Socket != "" {
		// Every connection goes to the socket; no proxy stands between.
		tr.Proxy, tr.DialContext = nil, httpconf.UnixEndpoint{Socket: t.cfg.Socket}.Dial
	}
	var rt http.RoundTripper = tr
	if t.cfg.Auth != nil {
		rt = &bearer.RoundTripper{
			Base:      tr,
			Auth:      refusalStatus{t.cfg.Auth},
			OnRefused: func(req *http.Request, rsp *http.Response) { t.reportResponse(connOf(req), rsp) },
			OnRetry:   func(req *http.Request) { t.reportRequest(connOf(req), req) },
		}
	}
	return &http.Client{Transport: rt, CheckRedirect: t.checkRedirect}, nil
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

// connOf is the connection name req's context carries.
func connOf(req *http.Request) string {
	conn, _ := req.Context().Value(connKey{}).(string)
	return conn
}

// redirectError says the server redirected a request with a status
// (301, 302, 303) that turns it into a body-less GET: a JSON-RPC POST so
// redirected would lose its message, so it is not followed. 307 and 308
// keep the method and the body and are followed.
type redirectError struct {
	Method   string // the method of the redirected request: POST, DELETE
	Status   int    // the 3xx status
	Location string // where the server sent it, resolved, credentials redacted
}

func (e *redirectError) Error() string {
	lost := "would become a GET"
	if e.Method == http.MethodPost {
		lost = "would lose its body"
	}
	return fmt.Sprintf("the server redirected the %s to %s with %d; a redirected %s %s: use that URL as the target",
		e.Method, e.Location, e.Status, e.Method, lost)
}

// failureStatus is the HTTP status behind err, the error of a request
// that got no response: the 3xx of a redirect not followed, the 401 or
// 403 that authorizing could not answer, or 0.
func failureStatus(err error) int {
	var re *redirectError
	if errors.As(err, &re) {
		return re.Status
	}
	var ae *authorizationError
	if errors.As(err, &ae) {
		return ae.Status
	}
	return 0
}

// authorizationError is a refusal (401, or 403 asking for more scope)
// that authorizing could not answer: the engine learns from its status
// that the request failed for want of authorization.
type authorizationError struct {
	Status int   // the refusal's HTTP status
	Err    error // why authorizing failed
}

func (e *authorizationError) Error() string { return e.Err.Error() }

// Unwrap returns why authorizing failed.
func (e *authorizationError) Unwrap() error { return e.Err }

// refusalStatus is the OAuth flow as the transport hands it to
// bearer.RoundTripper: a refusal it cannot answer keeps its HTTP status.
type refusalStatus struct{ bearer.Authorizer }

// Challenged answers the refusal rsp with the flow.
func (a refusalStatus) Challenged(ctx context.Context, req *http.Request, rsp *http.Response) error {
	if err := a.Authorizer.Challenged(ctx, req, rsp); err != nil {
		return &authorizationError{Status: rsp.StatusCode, Err: err}
	}
	return nil
}

// checkRedirect captures each redirect, the 3xx that asked for it and
// the request that follows, and strips every credential and every header
// the user added when the redirect leaves the origin. A redirect that
// would turn a POST (or a DELETE) into a GET is refused with a
// *redirectError.
func (t *Transport) checkRedirect(req *http.Request, via []*http.Request) error {
	conn := connOf(req)
	if req.Response != nil {
		t.reportResponse(conn, req.Response)
	}
	if prev := via[len(via)-1]; prev.Method != req.Method && req.Response != nil {
		return &redirectError{Method: prev.Method, Status: req.Response.StatusCode, Location: req.URL.Redacted()}
	}
	if len(via) >= maxRedirects {
		return errTooManyRedirects
	}
	first := via[0].URL
	if req.URL.Scheme != first.Scheme || req.URL.Host != first.Host {
		for name := range req.Header {
			if httphead.SecretHeader(name) || t.cfg.Header.Get(name) != "" {
				req.Header.Del(name)
			}
		}
	}
	t.reportRequest(conn, req)
	return nil
}
