// Package mock serves a recorded session as a deterministic server: each
// request is answered from the recording by method and parameters, the
// notifications the server sent are sent again in order, and a request
// the recording does not hold gets a JSON-RPC error naming the closest
// recorded one.
package mock

import "errors"

// Recording is a recorded session read for serving.
type Recording struct{}

// Load reads the recording at path.
func Load(path string) (*Recording, error) { return nil, errors.New("mock: not built yet") }

// Conn is one client's session with the mock: it keeps its own place in
// the recording.
type Conn struct{}

// NewConn starts a client's session.
func (r *Recording) NewConn() *Conn { return &Conn{} }

// Handle takes one JSON-RPC message from the client and returns the
// messages to send back, in order: the notifications and requests the
// server sent before its answer, then the answer (none for a
// notification or a response).
func (c *Conn) Handle(msg []byte) [][]byte { return nil }
