package screentest

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// wire is what the scripted peers share: the session's deliver, every
// message the client sent, kept and captured as a frame in the sink, and
// the end of the connection, which only Close brings.
type wire struct {
	sink capture.Sink

	mu      sync.Mutex
	sent    []*jsonrpc.Message
	deliver func(*jsonrpc.Message)

	done chan struct{}
	once sync.Once
}

// Start keeps deliver.
func (w *wire) Start(_ context.Context, deliver func(*jsonrpc.Message)) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.deliver = deliver
	return nil
}

// record captures m (when there is a sink) and keeps it, and returns the
// session's deliver for the answer.
func (w *wire) record(m *jsonrpc.Message) (deliver func(*jsonrpc.Message), err error) {
	if w.sink != nil {
		if err := w.capture(m); err != nil {
			return nil, err
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sent = append(w.sent, m)
	return w.deliver, nil
}

// reply delivers, in its own goroutine, the reply to id: the error
// rpcErr, or else the result whose JSON is res.
func reply(deliver func(*jsonrpc.Message), id *jsonrpc.ID, res string, rpcErr *jsonrpc.Error) {
	reply := &jsonrpc.Message{JSONRPC: jsonrpc.Version, ID: id, Error: rpcErr}
	if rpcErr == nil {
		reply.Result = json.RawMessage(res)
	}
	go deliver(reply)
}

// capture captures m as an outgoing control frame in the sink.
func (w *wire) capture(m *jsonrpc.Message) error {
	raw, err := m.EncodeJSON()
	if err != nil {
		return err
	}
	w.sink.Append(&capture.Frame{Time: T0, Dir: capture.Out, Conn: "fake", Chan: capture.Channel{Kind: capture.Control},
		Raw: raw, Size: len(raw), Enc: proto.EncJSON, Msg: m})
	return nil
}

// Close ends the connection.
func (w *wire) Close() error {
	w.once.Do(func() { close(w.done) })
	return nil
}

// Done is closed by Close.
func (w *wire) Done() <-chan struct{} { return w.done }

// Err is nil: the connection only ends by Close.
func (w *wire) Err() error { return nil }

// Describe declares nothing: the fake speaks standard MCP in JSON.
func (w *wire) Describe() client.Traits { return client.Traits{} }

// Deliver hands m to the session as if the server had sent it.
func (w *wire) Deliver(m *jsonrpc.Message) {
	w.mu.Lock()
	deliver := w.deliver
	w.mu.Unlock()
	deliver(m)
}

// Sent returns the messages of method the client sent, in order.
func (w *wire) Sent(method string) []*jsonrpc.Message {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []*jsonrpc.Message
	for _, m := range w.sent {
		if m.Method == method {
			out = append(out, m)
		}
	}
	return out
}
