package flowserve

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/mcpscope/mcpscope/demo"
	demoflow "github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Answerer answers one client's messages, as the mock engine's Conn does:
// Handle takes one JSON-RPC message (JSON) and returns the messages to
// send back, in order, the answer last.
type Answerer interface {
	Handle(msg []byte) [][]byte
}

// engine is the demo/flow Engine of a mock: one Answerer per session.
type engine struct {
	newConn func() Answerer
	notes   *notesWriter
	log     *slog.Logger
}

// NewConn starts a session with a fresh Answerer.
func (e *engine) NewConn(out demo.Outbound) demoflow.EngineConn {
	return &conn{a: e.newConn(), out: out, e: e}
}

// conn is one MCP-Flow session of the mock.
type conn struct {
	a   Answerer
	out demo.Outbound
	e   *engine
}

// Initialize asks the Answerer for the initialize answer; the messages
// before it go out first. The recorded result gets this session's
// transport object (replacing one recorded over MCP-Flow), with no
// datagrams: the mock replays none.
func (c *conn) Initialize(m *jsonrpc.Message, transport flow.FlowTransport) (any, *jsonrpc.Error) {
	transport.DatagramsSupported = false
	var answer *jsonrpc.Message
	for _, r := range c.answers(m) {
		if r.IsResponse() && r.ID != nil && m.ID != nil && r.ID.Key() == m.ID.Key() && answer == nil {
			answer = r
			continue
		}
		c.send(r)
	}
	switch {
	case answer == nil:
		return nil, &jsonrpc.Error{Code: mcp.CodeInternalError, Message: "the recording holds no answer to initialize"}
	case answer.Error != nil:
		return nil, answer.Error
	}
	var result map[string]json.RawMessage
	if err := json.Unmarshal(answer.Result, &result); err != nil || result == nil {
		return nil, &jsonrpc.Error{Code: mcp.CodeInternalError, Message: "the recorded initialize result is not an object"}
	}
	t, err := json.Marshal(transport)
	if err != nil {
		return nil, &jsonrpc.Error{Code: mcp.CodeInternalError, Message: err.Error()}
	}
	result["transport"] = t
	return result, nil
}

// Handle sends the Answerer's replies to m; a result that refers to
// execution streams is followed by a $/streamError for each, so that the
// client stops waiting for streams the mock does not replay.
func (c *conn) Handle(m *jsonrpc.Message) {
	for _, r := range c.answers(m) {
		c.send(r)
		c.refuseStreams(r)
	}
}

// streamNotReplayed is the error of the $/streamError the mock sends for
// a recorded execution stream.
const streamNotReplayed = "mcpscope mock does not replay execution streams"

// refuseStreams sends $/streamError for each stream r's result refers to.
func (c *conn) refuseStreams(r *jsonrpc.Message) {
	refs := flow.StreamRefs(r.Result)
	if len(refs) == 0 || r.ID == nil {
		return
	}
	id, ok := flow.FlowRequestID(*r.ID)
	if !ok {
		return
	}
	c.e.notes.say("an answer refers to an execution stream (ref/stream): the mock sends the answer as recorded, then $/streamError for the stream, which it does not replay")
	for _, ref := range refs {
		n, err := jsonrpc.NewNotification(flow.MethodFlowStreamError, flow.FlowStreamErrorParams{RequestID: id, StreamTag: ref.StreamTag, Error: streamNotReplayed})
		if err == nil {
			c.send(n)
		}
	}
}

// Close ends nothing: the Answerer runs no work of its own.
func (c *conn) Close() {}

// answers hands m to the Answerer as JSON and decodes its replies; a
// reply that does not decode is logged and left out.
func (c *conn) answers(m *jsonrpc.Message) []*jsonrpc.Message {
	body := m.Raw
	if !json.Valid(body) { // a CBOR frame: the Answerer speaks JSON
		var err error
		if body, err = m.EncodeJSON(); err != nil {
			c.e.log.Warn("a message the mock cannot pass on", "err", err)
			return nil
		}
	}
	var out []*jsonrpc.Message
	for _, raw := range c.a.Handle(body) {
		r, err := jsonrpc.Decode(proto.EncJSON, raw)
		if err != nil {
			c.e.log.Warn("a reply of the mock is no JSON-RPC message", "err", err)
			continue
		}
		out = append(out, r)
	}
	return out
}

// send writes one reply in the session's encoding.
func (c *conn) send(r *jsonrpc.Message) {
	r.Raw = nil // re-encoded in the encoding in force
	if err := c.out.Send(r); err != nil {
		c.e.log.Debug("a reply of the mock not sent", "err", err)
	}
}

// notesWriter writes each note once, as one line.
type notesWriter struct {
	mu   sync.Mutex
	w    io.Writer
	said map[string]bool
}

// say writes s once.
func (n *notesWriter) say(s string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.said[s] {
		return
	}
	if n.said == nil {
		n.said = map[string]bool{}
	}
	n.said[s] = true
	fmt.Fprintln(n.w, termtext.SafeLine("note: "+s))
}
