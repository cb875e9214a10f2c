package ui

import (
	"context"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/recordings"
)

// AttachSource is a live proxied session as the attach screen reads it:
// a *proxy.Session in the proxy's own process, a live.Viewer elsewhere.
type AttachSource interface {
	Steering
	Store() *capture.Store
	Header() recordings.Header
	Done() <-chan struct{}
	Err() error
	Missed() int64
}

// Steering is what a viewer may do to a proxied session's traffic: pause
// messages by filter, decide paused ones, inject requests, set faults.
type Steering interface {
	PauseOn([]proxy.Filter) error
	PauseFilters() []proxy.Filter
	Held() []proxy.Held
	Decide(n uint64, d proxy.Decision) error
	Inject(ctx context.Context, body []byte) (string, error)
	SetFaults([]proxy.Fault) error
	Faults() []proxy.Fault
}
