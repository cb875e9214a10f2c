package flow

import (
	"log/slog"
	"time"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto/flow"
)

// Path is the URL path of the MCP-Flow endpoint.
const Path = "/mcp"

// Defaults of Config.
const (
	DefaultListen               = "127.0.0.1:4433"
	DefaultMaxConcurrentStreams = 16
	DefaultShutdownGrace        = 2 * time.Second
	// maxFrameLimit caps MaxFrameSize, so that a lying length prefix of
	// 0xFFFFFFFF is always over the limit.
	maxFrameLimit = 1 << 30
)

// Config configures a Server. The zero value is usable.
type Config struct {
	// Listen is the UDP address to bind (default DefaultListen; port 0 picks one).
	Listen string
	// CertFile and KeyFile are PEM files of the TLS certificate. Both empty:
	// a fresh self-signed certificate for 127.0.0.1 and localhost.
	CertFile, KeyFile string
	// Origins lists the Origin header values accepted; a request without
	// Origin is always accepted, and "*" accepts any.
	Origins []string
	// MaxConcurrentStreams bounds the open execution streams of a session
	// (default DefaultMaxConcurrentStreams).
	MaxConcurrentStreams int
	// MaxFrameSize bounds a control frame from the client, in bytes
	// (default flow.DefaultMaxControlFrame, at most 1 GiB).
	MaxFrameSize int
	// SandboxRoot is the directory read_file serves ("" : a temporary one
	// with sample files). Ignored when Core is set.
	SandboxRoot string
	// Core is the demo server to expose; nil builds one owned by the Server.
	Core *demo.Server
	// Engine, when set, answers the clients instead of the demo core
	// (Core and SandboxRoot are then ignored).
	Engine Engine
	// ShutdownGrace is how long a draining session waits for the client to
	// close before the server closes it (default DefaultShutdownGrace).
	ShutdownGrace time.Duration
	// Logger receives diagnostics (nil: discarded).
	Logger *slog.Logger
}

// withDefaults fills the zero fields of c.
func (c Config) withDefaults() Config {
	if c.Listen == "" {
		c.Listen = DefaultListen
	}
	if c.MaxConcurrentStreams <= 0 {
		c.MaxConcurrentStreams = DefaultMaxConcurrentStreams
	}
	if c.MaxFrameSize <= 0 {
		c.MaxFrameSize = flow.DefaultMaxControlFrame
	}
	c.MaxFrameSize = min(c.MaxFrameSize, maxFrameLimit)
	if c.ShutdownGrace <= 0 {
		c.ShutdownGrace = DefaultShutdownGrace
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}
