package mcphttp

import (
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/tlsconf"
	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// Mode says which transport of the family to speak.
type Mode uint8

// Modes of the HTTP family.
const (
	// ModeAuto speaks Streamable HTTP and falls back to the legacy HTTP+SSE
	// transport when the first POST is refused with 400, 404 or 405 and no
	// JSON-RPC answer, as the spec's backwards-compatibility section says.
	ModeAuto Mode = iota
	// ModeStreamable speaks Streamable HTTP only.
	ModeStreamable
	// ModeLegacySSE speaks the HTTP+SSE transport of 2024-11-05: a GET
	// stream whose endpoint event names where to POST.
	ModeLegacySSE
	// ModeTools speaks seed 004's HTTP transport (--transport tools-http):
	// no handshake, each request a POST answered with JSON, or with SSE
	// result fragments, a complete event and error events.
	ModeTools
)

// String names the mode as --transport does.
func (m Mode) String() string {
	switch m {
	case ModeStreamable:
		return "streamable"
	case ModeLegacySSE:
		return "sse"
	case ModeTools:
		return "tools-http"
	}
	return "auto"
}

// Defaults of Config.
const (
	DefaultConn           = "http"
	DefaultRetryCap       = 5 * time.Second        // longest wait before reconnecting a stream
	DefaultResumeAttempts = 5                      // reconnections of one stream in a row
	DefaultCancelGrace    = 2 * time.Second        // a cancelled request's stream is read this long
	DefaultCloseTimeout   = 2 * time.Second        // bound on the POSTs under way and the DELETE at Close
	DefaultErrorBody      = 64 << 10               // bytes of an error body read
	firstRetry            = 250 * time.Millisecond // the first reconnection's wait when the server set none
)

// Config says where to connect and how.
type Config struct {
	// URL is the endpoint: the MCP endpoint of Streamable HTTP, or the SSE
	// stream's URL of the legacy transport.
	URL string
	// Socket, when set, is the Unix domain socket every connection goes
	// to, whatever host URL names (httpconf.UnixEndpoint: the path of a
	// unix:// target, "@name" for an abstract one); URL is then
	// http://localhost/PATH. TLS does not apply.
	Socket string
	// Mode picks the transport of the family (default ModeAuto).
	Mode Mode
	// Client holds what the requests carry, trust and accept: headers,
	// authorization, Origin, TLS, the largest frame, redaction, warnings.
	httpconf.Client
	// Sink receives every frame, both directions (nil: capture.Discard).
	Sink capture.Sink
	// Conn names the transport in frames: "http" gives connections
	// "http POST 3", "http GET 1" (default DefaultConn).
	Conn string
	// RetryCap bounds the wait before reconnecting a stream.
	RetryCap time.Duration
	// ResumeAttempts bounds the reconnections of one stream in a row.
	ResumeAttempts int
	// CancelGrace is how long the stream of a request cancelled in a
	// legacy era is still read after notifications/cancelled.
	CancelGrace time.Duration
	// CloseTimeout bounds, at Close, the wait for the POSTs of
	// notifications and responses under way, and the DELETE that ends
	// the session.
	CloseTimeout time.Duration
}

// withDefaults fills the zero fields of c.
func (c Config) withDefaults() Config {
	c.Client = c.Client.WithDefaults()
	if c.Sink == nil {
		c.Sink = capture.Discard
	}
	if c.Conn == "" {
		c.Conn = DefaultConn
	}
	if c.ResumeAttempts <= 0 {
		c.ResumeAttempts = DefaultResumeAttempts
	}
	c.RetryCap = positive(c.RetryCap, DefaultRetryCap)
	c.CancelGrace = positive(c.CancelGrace, DefaultCancelGrace)
	c.CloseTimeout = positive(c.CloseTimeout, DefaultCloseTimeout)
	return c
}

func positive(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// validate checks what New can check before connecting.
func (c Config) validate() (*url.URL, error) {
	u, err := url.Parse(c.URL)
	if err != nil {
		return nil, fmt.Errorf("the URL %q is not valid: %w", c.URL, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("the URL %q must be http://host[:port]/path or https://…", c.URL)
	}
	if c.Socket != "" && (u.Scheme != "http" || len(c.CertHashes) > 0 || c.Insecure || c.KeyLogFile != "") {
		return nil, errors.New("a unix:// target speaks plain HTTP on its socket: --cert-hash, --insecure and --keylog do not apply")
	}
	if u.Scheme == "http" && (len(c.CertHashes) > 0 || c.Insecure || c.KeyLogFile != "") {
		return nil, errors.New("--cert-hash, --insecure and --keylog apply to https:// URLs only")
	}
	if _, err := tlsconf.Pins(c.CertHashes, c.Insecure); err != nil {
		return nil, err
	}
	return u, nil
}
