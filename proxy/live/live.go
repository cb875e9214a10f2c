// Package live publishes a proxied session to local viewers (mcpscope
// attach) on a socket only the user can open, and is the viewers' side of
// it.
package live

import (
	"errors"

	"github.com/mcpscope/mcpscope/proxy"
)

// Hub publishes one session to its viewers.
type Hub struct{}

// Serve opens the session's socket and publishes s on it until Close.
func Serve(s *proxy.Session) (*Hub, error) { return nil, errors.New("not built yet") }

// Close stops publishing and removes the socket.
func (h *Hub) Close() {}
