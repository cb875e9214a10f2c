package proxy

import (
	"slices"
	"strconv"
	"sync"
)

// Conns keeps the connections a relay serving several hosts has open,
// oldest first, and names each in the capture: PREFIX1, PREFIX2, … in the
// order they opened. The newest one that can reach the server carries a
// viewer's injected requests. Safe for concurrent use.
type Conns[T comparable] struct {
	prefix string
	mu     sync.Mutex
	n      int
	open   []T
}

// NewConns returns an empty set whose connections are named prefix1,
// prefix2, ….
func NewConns[T comparable](prefix string) *Conns[T] { return &Conns[T]{prefix: prefix} }

// Opened keeps c and returns its name.
func (cs *Conns[T]) Opened(c T) string {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.n++
	cs.open = append(cs.open, c)
	return cs.prefix + strconv.Itoa(cs.n)
}

// Closed forgets c.
func (cs *Conns[T]) Closed(c T) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if i := slices.Index(cs.open, c); i >= 0 {
		cs.open = slices.Delete(cs.open, i, i+1)
	}
}

// All returns the open connections, oldest first.
func (cs *Conns[T]) All() []T {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return slices.Clone(cs.open)
}

// Newest returns the newest open connection ok accepts.
func (cs *Conns[T]) Newest(ok func(T) bool) (c T, found bool) {
	all := cs.All()
	for i := len(all) - 1; i >= 0; i-- {
		if ok(all[i]) {
			return all[i], true
		}
	}
	return c, false
}
