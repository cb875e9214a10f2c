// Package httpconf is what the transports that reach their server with
// HTTP requests — Streamable HTTP and legacy HTTP+SSE (transports/http),
// the WebSocket upgrade (transports/ws) — share of their configuration:
// the headers and the authorization a request carries, the certificates
// it trusts, the largest message it accepts back, and what the capture
// and the user are told. Each transport's Config embeds a Client, so the
// fields read the same in both and are documented here once.
package httpconf

import (
	"crypto/x509"
	"net/http"

	"github.com/mcpscope/mcpscope/internal/app/bearer"
	"github.com/mcpscope/mcpscope/proto/flow"
)

// Client is how a transport's requests reach the server: what they
// carry, what they trust, what they accept.
type Client struct {
	// Header holds further headers of every request: each POST and GET,
	// or the WebSocket upgrade (--header).
	Header http.Header
	// Auth, when set, authorizes the requests (OAuth): its token goes in
	// the Authorization header unless Header has one, and a 401 (or a
	// 403 asking for more scope) runs its authorization and sends the
	// request, or the upgrade, again.
	Auth bearer.Authorizer
	// Origin, when set, is sent as the Origin header (--origin).
	Origin string
	// CertHashes pins a self-signed server certificate ("sha256:HEX",
	// --cert-hash).
	CertHashes []string
	// Insecure skips certificate verification altogether (--insecure).
	Insecure bool
	// RootCAs verifies the server when neither CertHashes nor Insecure is
	// set; nil means the system roots.
	RootCAs *x509.CertPool
	// KeyLogFile, when set, receives the TLS secrets in NSS key log
	// format (--keylog).
	KeyLogFile string
	// MaxFrameSize is the largest message accepted from the server, in
	// bytes: a JSON body or an SSE event over HTTP, a message over the
	// WebSocket, which a larger one closes with 1009 (default
	// flow.DefaultMaxControlFrame, 16 MiB).
	MaxFrameSize int
	// NoRedact shows credentials (Authorization, cookies, tokens) in the
	// captured headers; by default their values are redacted.
	NoRedact bool
	// Warn, when set, is told what the user should know that is not an
	// error: a fallback to the legacy transport, a session initialized
	// again, a stream resumed (nil: nothing is told).
	Warn func(string)
}

// WithDefaults fills the zero fields of c that have a default.
func (c Client) WithDefaults() Client {
	if c.MaxFrameSize <= 0 {
		c.MaxFrameSize = flow.DefaultMaxControlFrame
	}
	if c.Warn == nil {
		c.Warn = func(string) {}
	}
	return c
}
