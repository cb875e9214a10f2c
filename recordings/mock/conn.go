package mock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// MaxBatchAnswers bounds the bytes of the answers to one batch: past it,
// each further request of the batch gets a short error instead of its
// recorded answer.
const MaxBatchAnswers = 4 << 20

// overBatch is the message of the error a request gets past
// MaxBatchAnswers: short, for there may be many.
var overBatch = fmt.Sprintf("batch answers over %d bytes", MaxBatchAnswers)

// Conn is one client's session with the mock: it keeps its own place in
// the recording. Its methods may be called from several goroutines.
type Conn struct {
	rec         *Recording
	mu          sync.Mutex
	served      map[*exchange]bool
	unsolicited bool // the unsolicited messages were sent
}

// NewConn starts a client's session.
func (r *Recording) NewConn() *Conn { return &Conn{rec: r, served: map[*exchange]bool{}} }

// Handle takes one JSON-RPC message from the client (or a JSON array of
// them) and returns the messages to send back, in order, as Each makes
// them.
func (c *Conn) Handle(msg []byte) [][]byte {
	var out [][]byte
	c.Each(msg, func(b []byte, _ bool) error {
		out = append(out, b)
		return nil
	})
	return out
}

// Each takes one JSON-RPC message from the client (or a JSON array of
// them) and hands fn each message to send back as it is made, in order:
// for a request, the notifications and requests the server sent before
// its answer, then the answer; for notifications/initialized, the
// messages the server sent outside any request; nothing for another
// notification or a response. inBatch says the message answers an item
// of a batch: a binding sends those as one JSON array. A message that is
// not JSON-RPC gets an error answer. Each stops at fn's first error and
// returns it.
func (c *Conn) Each(msg []byte, fn func(b []byte, inBatch bool) error) error {
	var items []json.RawMessage
	if t := bytes.TrimSpace(msg); len(t) == 0 || t[0] != '[' || json.Unmarshal(t, &items) != nil || len(items) == 0 {
		for _, b := range c.one(msg, false) {
			if err := fn(b, false); err != nil {
				return err
			}
		}
		return nil
	}
	size := 0
	for _, item := range items {
		for _, b := range c.one(item, size > MaxBatchAnswers) {
			size += len(b)
			if err := fn(b, true); err != nil {
				return err
			}
		}
	}
	return nil
}

// one answers one message (an item of a batch, over says the batch has
// had answers enough: a request gets a short error).
func (c *Conn) one(msg []byte, over bool) [][]byte {
	msgs, _, err := jsonrpc.DecodeJSON(msg)
	if err != nil && len(msgs) == 0 {
		if fixed, id := withRawID(&jsonrpc.Message{Raw: msg}); fixed != nil {
			return c.answerRequest(fixed, id, over)
		}
		code := mcp.CodeParseError
		if json.Valid(msg) {
			code = mcp.CodeInvalidRequest
		}
		return [][]byte{errorAnswer(nullID, code, "not a JSON-RPC message: "+oneLine(err.Error()), nil)}
	}
	var out [][]byte
	for _, m := range msgs {
		out = append(out, c.handleOne(m, over)...)
	}
	return out
}

// handleOne answers one decoded message; over says the batch it belongs
// to has had answers enough: a request gets a short error.
func (c *Conn) handleOne(m *jsonrpc.Message, over bool) [][]byte {
	if m.Violation != nil {
		if fixed, id := withRawID(m); fixed != nil {
			return c.answerRequest(fixed, id, over)
		}
		return [][]byte{errorAnswer(rawID(m), mcp.CodeInvalidRequest, "not a valid JSON-RPC message: "+oneLine(m.Violation.Error()), nil)}
	}
	switch m.Kind() {
	case jsonrpc.KindRequest:
		return c.answerRequest(m, rawID(m), over)
	case jsonrpc.KindNotification:
		if m.Method == mcp.MethodNotifyInitialized {
			return c.takeUnsolicited()
		}
		return nil
	case jsonrpc.KindResult, jsonrpc.KindError:
		return nil
	}
	return [][]byte{errorAnswer(rawID(m), mcp.CodeInvalidRequest, "not a JSON-RPC request, notification or response", nil)}
}

// answerRequest answers a request under the id token id.
func (c *Conn) answerRequest(m *jsonrpc.Message, id json.RawMessage, over bool) [][]byte {
	if over {
		return [][]byte{errorAnswer(id, mcp.CodeInvalidRequest, overBatch, nil)}
	}
	out := c.request(m, id)
	if m.Method != mcp.MethodInitialize && m.Method != mcp.MethodDiscover && c.rec.byMethod[mcp.MethodInitialize] == nil {
		out = append(out, c.takeUnsolicited()...) // a recording without a handshake: after the first answer
	}
	return out
}

// takeUnsolicited returns the unsolicited messages the first time only.
func (c *Conn) takeUnsolicited() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.unsolicited || len(c.rec.unsolicited) == 0 {
		return nil
	}
	c.unsolicited = true
	out := make([][]byte, len(c.rec.unsolicited))
	copy(out, c.rec.unsolicited) // the caller's append must not reach the Recording's
	return out
}

// request answers a request of the client from the recording.
func (c *Conn) request(m *jsonrpc.Message, id json.RawMessage) [][]byte {
	ex, failure := c.match(m.Method, m.Params)
	if failure != nil {
		return [][]byte{failure.answer(id)}
	}
	if ex == nil { // a ping the recording lacks
		return [][]byte{answer(id, json.RawMessage("{}"), nil)}
	}
	token := progressToken(m.Params)
	out := make([][]byte, 0, len(ex.before)+1)
	for _, b := range ex.before {
		if b, ok := withProgressToken(b, ex.token, token); ok {
			out = append(out, b)
		}
	}
	return append(out, answer(id, ex.result, ex.err))
}
