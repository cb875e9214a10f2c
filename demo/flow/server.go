package flow

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/demo/internal/origin"
	"github.com/mcpscope/mcpscope/internal/app/tlscert"
	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
	"github.com/quic-go/webtransport-go"
)

// Server is the demo server over MCP-Flow.
type Server struct {
	cfg       Config
	core      *demo.Server // nil when Config.Engine serves
	engine    Engine
	ownCore   bool
	cert      tls.Certificate
	generated bool

	udp *net.UDPConn
	wt  *webtransport.Server

	mu       sync.Mutex
	closing  bool
	sessions map[*session]struct{}
	wg       sync.WaitGroup
}

// connKey keys the QUIC connection in a request's context.
type connKey struct{}

// New prepares a server: it loads or generates the certificate and builds
// the demo core. Nothing is bound until Listen.
func New(cfg Config) (*Server, error) {
	cfg = cfg.withDefaults()
	s := &Server{cfg: cfg, core: cfg.Core, sessions: make(map[*session]struct{})}
	var err error
	if cfg.CertFile == "" && cfg.KeyFile == "" {
		s.cert, err = tlscert.SelfSigned("mcpscope demo", time.Now(), certValidity)
		s.generated = true
	} else {
		s.cert, err = loadCert(cfg.CertFile, cfg.KeyFile)
	}
	if err != nil {
		return nil, err
	}
	switch {
	case cfg.Engine != nil:
		s.engine, s.core = cfg.Engine, nil
		return s, nil
	case s.core == nil:
		if s.core, err = demo.New(demo.Options{SandboxRoot: cfg.SandboxRoot, Logger: cfg.Logger}); err != nil {
			return nil, err
		}
		s.ownCore = true
	}
	s.engine = demoEngine{s.core}
	return s, nil
}

// Listen binds the UDP socket; Addr is known from then on.
func (s *Server) Listen() error {
	addr, err := net.ResolveUDPAddr("udp", s.cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen address %q: %w", s.cfg.Listen, err)
	}
	if s.udp, err = net.ListenUDP("udp", addr); err != nil {
		return fmt.Errorf("listening on %s: %w", s.cfg.Listen, err)
	}
	return nil
}

// Addr returns the bound UDP address (nil before Listen).
func (s *Server) Addr() net.Addr {
	if s.udp == nil {
		return nil
	}
	return s.udp.LocalAddr()
}

// CertHash returns the pin of the server certificate, "sha256:HEX".
func (s *Server) CertHash() string { return tlscert.Hash(s.cert.Certificate[0]) }

// CertGenerated reports whether the certificate is a generated one.
func (s *Server) CertGenerated() bool { return s.generated }

// CertNotAfter returns when the certificate expires.
func (s *Server) CertNotAfter() time.Time {
	if s.cert.Leaf == nil {
		return time.Time{}
	}
	return s.cert.Leaf.NotAfter
}

// Core returns the demo server behind the endpoint (nil when
// Config.Engine serves).
func (s *Server) Core() *demo.Server { return s.core }

// hostPort is the address clients dial: a wildcard host becomes 127.0.0.1.
func (s *Server) hostPort() string {
	a, ok := s.Addr().(*net.UDPAddr)
	if !ok {
		return s.cfg.Listen
	}
	host := a.IP.String()
	if a.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, fmt.Sprint(a.Port))
}

// URL returns https://HOST:PORT/mcp.
func (s *Server) URL() string { return "https://" + s.hostPort() + Path }

// ConnectCommand returns the mcpscope command that lists the tools.
func (s *Server) ConnectCommand() string {
	return fmt.Sprintf("mcpscope call --cert-hash %s tools/list '{}' wt://%s%s", s.CertHash(), s.hostPort(), Path)
}

// ListenAndServe binds and serves until ctx is done.
func (s *Server) ListenAndServe(ctx context.Context) error {
	if err := s.Listen(); err != nil {
		return err
	}
	return s.Serve(ctx)
}

// Serve serves on the socket bound by Listen until ctx is done; then every
// session is sent $/shutdown, drained (bounded by ShutdownGrace) and closed.
func (s *Server) Serve(ctx context.Context) error {
	if s.udp == nil {
		return errors.New("serve needs Listen first")
	}
	mux := http.NewServeMux()
	mux.HandleFunc(Path, s.handle)
	tlsConf := http3.ConfigureTLSConfig(&tls.Config{Certificates: []tls.Certificate{s.cert}, MinVersion: tls.VersionTLS13})
	s.wt = &webtransport.Server{CheckOrigin: s.originAllowed, H3: &http3.Server{
		TLSConfig:       tlsConf,
		EnableDatagrams: true,
		Handler:         mux,
		Logger:          s.cfg.Logger,
		ConnContext: func(ctx context.Context, c *quic.Conn) context.Context {
			return context.WithValue(ctx, connKey{}, c)
		},
	}}
	ln, err := quic.ListenEarly(s.udp, tlsConf, &quic.Config{EnableDatagrams: true, EnableStreamResetPartialDelivery: true})
	if err != nil {
		return fmt.Errorf("starting QUIC on %s: %w", s.udp.LocalAddr(), err)
	}
	stopped := make(chan struct{})
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		select {
		case <-ctx.Done():
			s.shutdownSessions()
		case <-stopped:
		}
		_ = ln.Close()
		_ = s.wt.Close()
	}()
	var conns sync.WaitGroup
	err = s.accept(ln, &conns)
	close(stopped)
	<-closed
	conns.Wait()
	s.wg.Wait()
	_ = s.udp.Close()
	if s.ownCore {
		_ = s.core.Close()
	}
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// accept hands each QUIC connection to the WebTransport server until the
// listener closes. (webtransport.Server.Serve is not used: its Close races
// with a Serve that is just starting.)
func (s *Server) accept(ln *quic.EarlyListener, conns *sync.WaitGroup) error {
	for {
		qc, err := ln.Accept(context.Background())
		if err != nil {
			if errors.Is(err, quic.ErrServerClosed) {
				return nil
			}
			return err
		}
		conns.Go(func() {
			if err := s.wt.ServeQUICConn(qc); err != nil && !errors.Is(err, http.ErrServerClosed) {
				s.cfg.Logger.Debug("QUIC connection ended", "err", err)
			}
		})
	}
}

// shutdownSessions sends $/shutdown to every session and waits for them to
// drain and close.
func (s *Server) shutdownSessions() {
	s.mu.Lock()
	s.closing = true
	list := make([]*session, 0, len(s.sessions))
	for ss := range s.sessions {
		list = append(list, ss)
	}
	s.mu.Unlock()
	for _, ss := range list {
		ss.shutdown(true)
	}
	s.wg.Wait()
}

// handle upgrades a request on /mcp to a WebTransport session.
func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	if !s.originAllowed(r) {
		s.cfg.Logger.Warn("origin refused", "origin", r.Header.Get("Origin"))
		http.Error(w, "origin not allowed", http.StatusForbidden)
		return
	}
	s.mu.Lock()
	closing := s.closing
	s.mu.Unlock()
	if closing {
		http.Error(w, "the server is shutting down", http.StatusServiceUnavailable)
		return
	}
	wts, err := s.wt.Upgrade(w, r)
	if err != nil {
		s.cfg.Logger.Warn("upgrade failed", "err", err)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	qc, _ := r.Context().Value(connKey{}).(*quic.Conn)
	ss := newSession(s, wts, qc)
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		_ = wts.CloseWithError(0, "shutdown")
		return
	}
	s.sessions[ss] = struct{}{}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		ss.run()
		s.mu.Lock()
		delete(s.sessions, ss)
		s.mu.Unlock()
	}()
}

// originAllowed accepts a request without Origin, or with one on the list.
func (s *Server) originAllowed(r *http.Request) bool {
	return origin.Allowed(s.cfg.Origins, r.Header.Get("Origin"))
}
