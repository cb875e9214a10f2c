package ui

import (
	"context"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/recordings"
)

// Steering is what a viewer of a proxied session may do to its traffic:
// pause what matches a filter, decide for a paused message, inject a
// request and set the fault rules (proxy.Session's methods).
type Steering interface {
	PauseOn([]proxy.Filter) error
	PauseFilters() []proxy.Filter
	Held() []proxy.Held
	Decide(n uint64, d proxy.Decision) error
	Inject(ctx context.Context, body []byte) (string, error)
	SetFaults([]proxy.Fault) error
	Faults() []proxy.Fault
}

// AttachSource is one live proxied session as the TUI sees it: its
// steering, the store of what it captured, the header of its recording,
// and whether and how it ended. A *proxy.Session is one; so is a viewer
// of a session over the proxy's socket.
type AttachSource interface {
	Steering
	Store() *capture.Store
	Header() recordings.Header
	Done() <-chan struct{}
	Err() error
	Missed() int64
}
