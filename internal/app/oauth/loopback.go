package oauth

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"time"
)

// callbackPath is where the browser's redirect lands.
const callbackPath = "/callback"

// callback is what the authorization server's redirect carried.
type callback struct {
	Code, State, Iss        string
	Error, ErrorDescription string
}

// loopback is the listener on 127.0.0.1, on a port of its own, that the
// authorization server redirects the browser to (RFC 8252 §7.3).
type loopback struct {
	ln   net.Listener
	srv  *http.Server
	got  chan callback
	seen func(*http.Request, callback)
}

// listenLoopback starts the redirect listener; seen is told of each
// redirect that arrives, before it is handed on.
func listenLoopback(seen func(*http.Request, callback)) (*loopback, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening for the browser's redirect on 127.0.0.1: %w", err)
	}
	l := &loopback{ln: ln, got: make(chan callback, 1), seen: seen}
	l.srv = &http.Server{Handler: l, ReadHeaderTimeout: 10 * time.Second}
	go l.srv.Serve(ln)
	return l, nil
}

// url is the redirect URI registered and sent.
func (l *loopback) url() string {
	return "http://" + l.ln.Addr().String() + callbackPath
}

// ServeHTTP takes the redirect: a code and a state, or an error.
func (l *loopback) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if r.URL.Path != callbackPath || q.Get("state") == "" && q.Get("error") == "" {
		http.NotFound(w, r)
		return
	}
	cb := callback{
		Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss"),
		Error: q.Get("error"), ErrorDescription: q.Get("error_description"),
	}
	if l.seen != nil {
		l.seen(r, cb)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if cb.Error != "" {
		fmt.Fprintf(w, "<!doctype html><title>mcpscope</title><p>The authorization was refused: %s %s. You can close this tab.</p>\n",
			html.EscapeString(cb.Error), html.EscapeString(cb.ErrorDescription))
	} else {
		fmt.Fprint(w, "<!doctype html><title>mcpscope</title><p>mcpscope is authorized. You can close this tab.</p>\n")
	}
	select {
	case l.got <- cb:
	default: // one is waiting already; the flow takes the first
	}
}

// drain forgets a redirect that arrived for an earlier authorization.
func (l *loopback) drain() {
	select {
	case <-l.got:
	default:
	}
}

// wait returns the next redirect, or ctx's error.
func (l *loopback) wait(ctx context.Context) (callback, error) {
	select {
	case cb := <-l.got:
		return cb, nil
	case <-ctx.Done():
		return callback{}, context.Cause(ctx)
	}
}

// close stops the listener.
func (l *loopback) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := l.srv.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
