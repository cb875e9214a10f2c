package ws

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/bearer"
	"github.com/mcpscope/mcpscope/internal/app/tlsconf"
	"github.com/mcpscope/mcpscope/transports/internal/netword"
)

// dial performs the upgrade: TLS verified by default, pinned or skipped
// only when asked; no redirect followed (an upgrade is answered 101 or
// fails, and credentials never go elsewhere); the request and its answer
// captured as HTTP frames.
func (t *Transport) dial(ctx context.Context) (*websocket.Conn, error) {
	var keyLog io.Writer
	if t.cfg.KeyLogFile != "" {
		f, err := tlsconf.OpenKeyLog(t.cfg.KeyLogFile)
		if err != nil {
			return nil, err
		}
		t.keyLog, keyLog = f, f
	}
	tc, err := tlsconf.Config(tlsconf.Options{
		ServerName: t.url.Hostname(),
		CertHashes: t.cfg.CertHashes,
		Insecure:   t.cfg.Insecure,
		RootCAs:    t.cfg.RootCAs,
		NextProtos: []string{"http/1.1"},
	}, keyLog)
	if err != nil {
		return nil, err
	}
	var rt http.RoundTripper = &capturingTransport{t: t, rt: &http.Transport{
		Proxy:          http.ProxyFromEnvironment,
		DialContext:    t.dialGuarded,
		DialTLSContext: t.dialTLS(tc),
		// TLS through a proxy is net/http's own, on DialContext: unguarded
		// (the exception doc.go names).
		TLSClientConfig:     tc,
		TLSHandshakeTimeout: tlsHandshakeTimeout,
		DisableCompression:  true,
		// One connection per upgrade: the guard follows one HTTP answer.
		DisableKeepAlives: true,
		// A head the guard would step aside for is refused here.
		MaxResponseHeaderBytes: headCap,
	}}
	if t.cfg.Auth != nil {
		// A 401 to the upgrade runs the authorization and upgrades again;
		// the capture beneath sees every try.
		rt = &bearer.RoundTripper{Base: rt, Auth: t.cfg.Auth}
	}
	hc := &http.Client{
		Transport: rt,
		CheckRedirect: func(req *http.Request, _ []*http.Request) error {
			return fmt.Errorf("the upgrade was redirected to %s: a WebSocket upgrade is not followed elsewhere; use that URL as the target", req.URL.Redacted())
		},
	}
	hdr := t.cfg.Header.Clone()
	if hdr == nil {
		hdr = http.Header{}
	}
	if t.cfg.Origin != "" {
		hdr.Set("Origin", t.cfg.Origin)
	}
	if t.cfg.Auth != nil && hdr.Get("Authorization") == "" {
		if v := t.cfg.Auth.Header(ctx); v != "" {
			hdr.Set("Authorization", v)
		}
	}
	opts := &websocket.DialOptions{
		HTTPClient:     hc,
		HTTPHeader:     hdr,
		OnPingReceived: func(_ context.Context, payload []byte) bool { return t.answerPing(payload) },
		OnPongReceived: func(_ context.Context, payload []byte) { t.reportControl(incoming, "pong", payload) },
	}
	opts.Subprotocols = t.cfg.Mode.Subprotocols()
	c, rsp, err := websocket.Dial(ctx, t.url.String(), opts)
	if err != nil {
		return nil, t.wordDial(ctx, rsp, err)
	}
	return c, nil
}

// wordDial says why the upgrade failed: the status that refused it and
// the first line of its body, the limit that ran out before an answer
// came, or the TLS or network failure.
func (t *Transport) wordDial(ctx context.Context, rsp *http.Response, err error) error {
	if rsp != nil && rsp.StatusCode != http.StatusSwitchingProtocols {
		line := ""
		if rsp.Body != nil {
			b, _ := io.ReadAll(io.LimitReader(rsp.Body, 512))
			line, _, _ = strings.Cut(strings.TrimSpace(string(b)), "\n")
		}
		msg := fmt.Sprintf("the WebSocket upgrade to %s was answered %s", t.url.Redacted(), rsp.Status)
		if line != "" {
			msg += ": " + line
		}
		switch rsp.StatusCode {
		case http.StatusUnauthorized, http.StatusForbidden:
			msg += " (pass credentials with --header)"
		}
		return errors.New(msg)
	}
	if limit := client.StartLimit(ctx); limit != nil {
		t.mu.Lock()
		answered := t.answered
		t.mu.Unlock()
		if answered != "" {
			return fmt.Errorf("the WebSocket upgrade to %s was answered %s, and the authorization that followed did not end %w", t.url.Redacted(), answered, limit)
		}
		return fmt.Errorf("the WebSocket upgrade to %s got no answer %w", t.url.Redacted(), limit)
	}
	if errors.Is(context.Cause(ctx), client.ErrClosed) {
		return client.ErrClosed
	}
	return netword.Failure("the WebSocket upgrade to "+t.url.Redacted(), t.url.Host, err)
}

// capturingTransport captures the upgrade request and its answer as HTTP
// frames, exactly as they go: the key coder/websocket chose included.
type capturingTransport struct {
	t  *Transport
	rt http.RoundTripper
}

// RoundTrip captures req, sends it and captures the answer's head.
func (c *capturingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c.t.reportRequest(req)
	rsp, err := c.rt.RoundTrip(req)
	if err == nil {
		c.t.mu.Lock()
		c.t.answered = rsp.Status
		c.t.mu.Unlock()
		c.t.reportResponse(rsp)
	}
	return rsp, err
}

// tlsHandshakeTimeout bounds the TLS handshake of a wss:// upgrade.
const tlsHandshakeTimeout = 10 * time.Second

// dialGuarded dials a ws:// connection and guards the frames it carries
// (frame_guard.go).
func (t *Transport) dialGuarded(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := t.dialTCP(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return t.guard(c), nil
}

// dialTLS dials a wss:// connection with tc and guards the frames it
// carries, above TLS.
func (t *Transport) dialTLS(tc *tls.Config) func(context.Context, string, string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		raw, err := t.dialTCP(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		ctx, cancel := context.WithTimeout(ctx, tlsHandshakeTimeout)
		defer cancel()
		c := tls.Client(raw, tc)
		if err := c.HandshakeContext(ctx); err != nil {
			_ = raw.Close()
			return nil, err
		}
		return t.guard(c), nil
	}
}

// guard wraps c in a frame guard of the transport's limit.
func (t *Transport) guard(c net.Conn) net.Conn {
	return guardFrames(c, t.cfg.MaxFrameSize)
}

// dialTCP dials the connection the WebSocket runs on and keeps it, so that
// Close can drop it when the server does not answer the close frame.
func (t *Transport) dialTCP(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext(ctx, network, addr)
	if err == nil {
		t.mu.Lock()
		t.raw = c
		t.mu.Unlock()
	}
	return c, err
}
