package demohttp

import (
	"crypto/rand"
	"maps"
	"slices"
	"sync"
)

// ender is a session the registry can end.
type ender interface{ end() }

// registry holds the open sessions by id, at most max of them.
type registry struct {
	mu     sync.Mutex
	max    int
	closed bool
	byID   map[string]ender
}

// newRegistry returns an empty registry of at most max sessions.
func newRegistry(max int) *registry { return &registry{max: max, byID: make(map[string]ender)} }

// newSessionID returns a fresh session id: 26 characters of base32, 130
// random bits, visible ASCII as Mcp-Session-Id requires.
func newSessionID() string { return rand.Text() }

// add registers s under id; false when the registry is full or closed.
func (r *registry) add(id string, s ender) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || len(r.byID) >= r.max {
		return false
	}
	r.byID[id] = s
	return true
}

// get returns the session of id, or nil.
func (r *registry) get(id string) ender {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byID[id]
}

// remove unregisters id and reports whether s was registered under it.
func (r *registry) remove(id string, s ender) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byID[id] != s {
		return false
	}
	delete(r.byID, id)
	return true
}

// count returns how many sessions are registered.
func (r *registry) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.byID)
}

// closeAll ends every session and refuses new ones.
func (r *registry) closeAll() {
	r.mu.Lock()
	r.closed = true
	all := slices.Collect(maps.Values(r.byID))
	clear(r.byID)
	r.mu.Unlock()
	for _, s := range all {
		s.end()
	}
}
