package webtransport

import (
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/tlsconf"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
)

// Defaults of Config.
const (
	DefaultConn                = "wt"                   // connection name of frames
	DefaultDrainTimeout        = 10 * time.Second       // wait for open streams at shutdown
	DefaultShutdownGrace       = time.Second            // bound on sending $/shutdown and on the wait after it
	DefaultStreamHeaderTimeout = 10 * time.Second       // wait for the 8 header bytes of a stream
	DefaultStreamErrorGrace    = 500 * time.Millisecond // wait for $/streamError after a reset
	// DefaultChunkSize is the read buffer of one execution stream.
	DefaultChunkSize = 256 << 10
)

// DefaultEncodings is the preference list the engine offers in initialize.
var DefaultEncodings = []string{"cbor", "json"}

// Config says where to connect and how to watch the session.
type Config struct {
	// URL is the https:// URL of the MCP-Flow endpoint, e.g.
	// https://127.0.0.1:4433/mcp.
	URL string
	// CertHashes pins the server certificate: "sha256:HEX" digests of the
	// leaf certificate (DER). With any set, the chain is not verified
	// against roots; the leaf must match one of them.
	CertHashes []string
	// Insecure skips certificate verification altogether.
	Insecure bool
	// RootCAs verifies the server when neither CertHashes nor Insecure is
	// set; nil means the system roots.
	RootCAs *x509.CertPool
	// Origin, when set, is sent as the Origin header of the CONNECT request.
	Origin string
	// Header holds further headers of the CONNECT request.
	Header http.Header
	// NoRedact shows credentials (Authorization, cookies, tokens) in the
	// captured CONNECT headers; by default their values are redacted.
	NoRedact bool
	// KeyLogFile, when set, receives the TLS secrets in NSS key log format
	// (appended), so that Wireshark can decrypt a capture.
	KeyLogFile string
	// Encodings is the preference list offered in initialize ("cbor",
	// "json"); default DefaultEncodings.
	Encodings []string
	// MaxFrameSize is the largest control frame body accepted from the
	// server, in bytes; default flow.DefaultMaxControlFrame (16 MiB).
	MaxFrameSize int
	// Sink receives every unit, both directions (nil → capture.Discard). It
	// must be safe for concurrent use. When it is a capture.Tap it also
	// gets the streams' notes (their ends and announced sizes).
	Sink capture.Sink
	// Conn names the connection in frames (default "wt").
	Conn string
	// StreamSink returns where the payload of an execution stream goes;
	// nil discards payloads (the capture still sees them).
	StreamSink func(key capture.StreamKey) (io.WriteCloser, error)
	// OnState, when set, sees every state transition, in order. It is
	// called synchronously and must neither block nor call the Transport.
	OnState func(Transition)
	// DrainTimeout bounds the wait for execution streams at shutdown.
	DrainTimeout time.Duration
	// ShutdownGrace bounds the sending of $/shutdown and, once the streams
	// are drained, the wait for the server to close the session (which
	// is two initialize round trips when shorter).
	ShutdownGrace time.Duration
	// StreamHeaderTimeout bounds the wait for the header of a new stream.
	StreamHeaderTimeout time.Duration
	// StreamErrorGrace is how long a stream reset by the server waits for
	// the server's $/streamError, so that its reason can be shown.
	StreamErrorGrace time.Duration
	// ChunkSize is the read buffer of one execution stream (default 256 KiB).
	ChunkSize int
}

// withDefaults fills the zero fields of c.
func (c Config) withDefaults() Config {
	if len(c.Encodings) == 0 {
		c.Encodings = DefaultEncodings
	}
	if c.MaxFrameSize <= 0 {
		c.MaxFrameSize = flow.DefaultMaxControlFrame
	}
	if c.Sink == nil {
		c.Sink = capture.Discard
	}
	if c.Conn == "" {
		c.Conn = DefaultConn
	}
	c.DrainTimeout = positive(c.DrainTimeout, DefaultDrainTimeout)
	c.ShutdownGrace = positive(c.ShutdownGrace, DefaultShutdownGrace)
	c.StreamHeaderTimeout = positive(c.StreamHeaderTimeout, DefaultStreamHeaderTimeout)
	c.StreamErrorGrace = positive(c.StreamErrorGrace, DefaultStreamErrorGrace)
	if c.ChunkSize <= 0 {
		c.ChunkSize = DefaultChunkSize
	}
	return c
}

func positive(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// validate checks what New can check before connecting and returns the
// parsed URL and pinned digests.
func (c Config) validate() (*url.URL, [][32]byte, error) {
	u, err := url.Parse(c.URL)
	if err != nil {
		return nil, nil, fmt.Errorf("the MCP-Flow URL %q is not valid: %w", c.URL, err)
	}
	if u.Scheme != "https" || u.Host == "" {
		return nil, nil, fmt.Errorf("the MCP-Flow URL %q must be https://host:port/path", c.URL)
	}
	pins, err := tlsconf.Pins(c.CertHashes, c.Insecure)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range c.Encodings {
		if _, ok := encodingByName(e); !ok {
			return nil, nil, fmt.Errorf("MCP-Flow encoding %q is not one mcpscope speaks (cbor or json)", e)
		}
	}
	return u, pins, nil
}

// encodingByName maps an MCP-Flow encoding name to the proto encoding.
func encodingByName(name string) (proto.Encoding, bool) {
	switch name {
	case "json":
		return proto.EncJSON, true
	case "cbor":
		return proto.EncCBOR, true
	}
	return 0, false
}
