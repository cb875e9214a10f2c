package screen

import (
	"sync"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// SentID is the id of a request a screen has in flight: the session
// records it from its own goroutine as the request goes out (each round
// of a call replaces it), and the screen reads it to cancel the request
// or to show its frames. A nil *SentID has none.
type SentID struct {
	mu   sync.Mutex
	id   jsonrpc.ID
	sent bool
}

// Round records the id of a round of the call; it is a client.WithRounds
// callback.
func (s *SentID) Round(_ int, id jsonrpc.ID) {
	s.mu.Lock()
	s.id, s.sent = id, true
	s.mu.Unlock()
}

// Get returns the id of the latest round, once one was sent.
func (s *SentID) Get() (jsonrpc.ID, bool) {
	if s == nil {
		return jsonrpc.ID{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.id, s.sent
}
