package wtrelay

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
	wt "github.com/quic-go/webtransport-go"

	"github.com/mcpscope/mcpscope/internal/app/tlscert"
	"github.com/mcpscope/mcpscope/internal/app/tlsconf"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proxy"
)

// Options configures a Relay.
type Options struct {
	// Upstream is the server's wt:// (or https://) URL; a host's session
	// goes to its host, on the path the host asked.
	Upstream string
	// Cert is the proxy's own certificate, which hosts pin.
	Cert tls.Certificate
	// CertHashes pins the server's certificate ("sha256:HEX").
	CertHashes []string
	// Insecure skips verifying the server's certificate.
	Insecure bool
	// RootCAs verifies the server (nil: the system roots).
	RootCAs *x509.CertPool
	// MaxFrameSize is the largest control frame read from either side (0:
	// flow.DefaultMaxControlFrame).
	MaxFrameSize int
	// NoRedact keeps credentials in the captured CONNECT heads.
	NoRedact bool
}

// CertValidity is the lifetime of a certificate the proxy makes itself:
// under the 14 days WebTransport's serverCertificateHashes accepts.
const CertValidity = 13 * 24 * time.Hour

// SelfSigned makes the proxy a fresh self-signed ECDSA certificate valid
// for CertValidity from now.
func SelfSigned() (tls.Certificate, error) {
	return tlscert.SelfSigned("mcpscope proxy", time.Now(), CertValidity)
}

// Relay relays the WebTransport sessions of hosts to one server.
type Relay struct {
	sess *proxy.Session
	opt  Options
	base *url.URL
	tls  *tls.Config

	pairs *proxy.Conns[*pair] // open sessions: the newest carries injections
	wg    sync.WaitGroup
}

// New returns a relay of sess to opt.Upstream, registered as the
// session's way to the server for injected requests.
func New(sess *proxy.Session, opt Options) (*Relay, error) {
	u, err := url.Parse(opt.Upstream)
	if err != nil {
		return nil, fmt.Errorf("the WebTransport URL %q: %w", opt.Upstream, err)
	}
	if (u.Scheme != "wt" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("the WebTransport URL %q must be wt://HOST:PORT/PATH", opt.Upstream)
	}
	u.Scheme = "https"
	if len(opt.Cert.Certificate) == 0 {
		return nil, errors.New("the proxy needs a certificate of its own to serve WebTransport")
	}
	if opt.MaxFrameSize <= 0 {
		opt.MaxFrameSize = flow.DefaultMaxControlFrame
	}
	tc, err := tlsconf.Config(tlsconf.Options{
		ServerName: u.Hostname(), CertHashes: opt.CertHashes, Insecure: opt.Insecure,
		RootCAs: opt.RootCAs, MinVersion: tls.VersionTLS13,
	}, nil)
	if err != nil {
		return nil, err
	}
	r := &Relay{sess: sess, opt: opt, base: u, tls: tc, pairs: proxy.NewConns[*pair]("wt")}
	sess.SetInjector(r.inject)
	return r, nil
}

// CertHash is the pin of the proxy's certificate, "sha256:HEX".
func (r *Relay) CertHash() string { return tlscert.Hash(r.opt.Cert.Certificate[0]) }

// LocalURL is the wt:// URL a host uses to reach the server through a
// proxy listening on addr. The upstream's query, which may hold a
// credential, is not in it: the proxy adds it to a host's request that
// has none.
func (r *Relay) LocalURL(addr net.Addr) string {
	u := *r.base
	u.Scheme, u.Host, u.User, u.RawQuery = "wt", addr.String(), nil, ""
	return u.String()
}

// Serve serves WebTransport on udp until ctx ends, then closes every
// open session and waits for them.
func (r *Relay) Serve(ctx context.Context, udp net.PacketConn) error {
	tlsConf := http3.ConfigureTLSConfig(&tls.Config{Certificates: []tls.Certificate{r.opt.Cert}, MinVersion: tls.VersionTLS13})
	srv := &wt.Server{
		// The host's Origin goes to the server, which decides on it.
		CheckOrigin: func(*http.Request) bool { return true },
		H3: &http3.Server{
			TLSConfig:       tlsConf,
			EnableDatagrams: true,
		},
	}
	srv.H3.Handler = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { r.handle(ctx, srv, w, req) })
	ln, err := quic.ListenEarly(udp, tlsConf, &quic.Config{EnableDatagrams: true, EnableStreamResetPartialDelivery: true, KeepAlivePeriod: keepAlive})
	if err != nil {
		return fmt.Errorf("starting QUIC on %s: %w", udp.LocalAddr(), err)
	}
	stop := context.AfterFunc(ctx, func() {
		r.closeAll(sessionCodeShutdown, "the proxy stopped")
		_ = ln.Close()
	})
	defer stop()
	var conns sync.WaitGroup
	for {
		qc, err := ln.Accept(context.Background())
		if err != nil {
			break
		}
		conns.Go(func() { _ = srv.ServeQUICConn(qc) })
	}
	_ = srv.Close()
	conns.Wait()
	r.wg.Wait()
	return nil
}

// keepAlive keeps idle sessions open through NATs and idle timeouts.
const keepAlive = 15 * time.Second

// inject writes an injected request on the control stream of the newest
// open session, in its encoding.
func (r *Relay) inject(ctx context.Context, body []byte) error {
	p, ok := r.pairs.Newest(func(p *pair) bool { return p.control.ready() })
	if !ok {
		return proxy.ErrNoServerPath
	}
	return p.control.Send(ctx, outward, body)
}

// opened names and registers a new pair.
func (r *Relay) opened(p *pair) { p.conn = r.pairs.Opened(p) }

// closed forgets a pair.
func (r *Relay) closed(p *pair) { r.pairs.Closed(p) }

// closeAll closes every open session with code, saying why.
func (r *Relay) closeAll(code wt.SessionErrorCode, why string) {
	for _, p := range r.pairs.All() {
		p.closeBoth(code, why)
	}
}
