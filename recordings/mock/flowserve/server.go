package flowserve

import (
	"io"
	"log/slog"

	demoflow "github.com/mcpscope/mcpscope/demo/flow"
)

// Config configures a mock's MCP-Flow server.
type Config struct {
	// Listen is the UDP address to bind (port 0 picks one).
	Listen string
	// NewConn returns the Answerer of a new session.
	NewConn func() Answerer
	// Notes receives a line for each thing of the recording the mock
	// does not replay (nil: discarded).
	Notes io.Writer
	// Logger receives diagnostics (nil: discarded).
	Logger *slog.Logger
}

// New prepares the server with a fresh self-signed certificate (13 days,
// as mcpscope serve makes): Listen, then Serve, as for the demo.
func New(cfg Config) (*demoflow.Server, error) {
	if cfg.Notes == nil {
		cfg.Notes = io.Discard
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	e := &engine{newConn: cfg.NewConn, notes: &notesWriter{w: cfg.Notes}, log: cfg.Logger}
	return demoflow.New(demoflow.Config{Listen: cfg.Listen, Engine: e, Logger: cfg.Logger})
}
