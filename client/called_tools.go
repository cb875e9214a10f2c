package client

import (
	"bytes"
	"encoding/json"
	"slices"
	"sync"
)

// maxCalledTools bounds the tool names a session remembers.
const maxCalledTools = 256

// calledTools are the names of the tools a session's tools/call was
// answered for (a result, whatever it says), in the order first called.
// A dialect without tools/list (tools-http, tools-ws) has no other way to
// know the server's tools.
type calledTools struct {
	mu    sync.Mutex
	names []string
	// last are the params last noted: the same call made again (a load
	// test) is not decoded again.
	last []byte
}

// note remembers the tool named in the params of a tools/call.
func (c *calledTools) note(params json.RawMessage) {
	c.mu.Lock()
	same := bytes.Equal(params, c.last)
	c.mu.Unlock()
	if same {
		return
	}
	var p struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(params, &p) != nil || p.Name == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(params) <= maxNotedParams {
		c.last = append(c.last[:0], params...)
	}
	if len(c.names) < maxCalledTools && !slices.Contains(c.names, p.Name) {
		c.names = append(c.names, p.Name)
	}
}

// maxNotedParams bounds the params calledTools keeps to skip a repeat.
const maxNotedParams = 4 << 10

// CalledTools returns the names of the tools this session called and got
// a result for (an error answer does not count), in the order first called.
func (s *Session) CalledTools() []string {
	s.called.mu.Lock()
	defer s.called.mu.Unlock()
	return slices.Clone(s.called.names)
}
