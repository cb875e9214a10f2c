// Package wizardtest plays a raw client of the demo server's interactive
// sessions (seed 002) and elicitations over any transport, so that the
// core's tests and each transport's end-to-end tests walk the same
// scripts. It knows the wire, not the server's code.
package wizardtest

import (
	"encoding/json"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Peer is one raw connection to the demo server.
type Peer interface {
	// Send writes one message to the server.
	Send(m *jsonrpc.Message)
	// Next returns the next message from the server; it fails the test
	// when none comes (a hang guard, not a timed assertion).
	Next() *jsonrpc.Message
}

// Client sends requests with fresh integer ids and keeps the messages the
// server initiates (requests, notifications) for Expect.
type Client struct {
	t      testing.TB
	peer   Peer
	nextID int64
	queue  []*jsonrpc.Message
}

// New drives peer; request ids start at 100 (below 2^32, as MCP-Flow needs).
func New(t testing.TB, peer Peer) *Client { return &Client{t: t, peer: peer, nextID: 100} }

// Call sends a request and returns its response; messages the server
// initiates meanwhile are queued.
func (c *Client) Call(method string, params any) *jsonrpc.Message {
	c.t.Helper()
	return c.Await(c.Start(method, params))
}

// Start sends a request without waiting for its response.
func (c *Client) Start(method string, params any) jsonrpc.ID {
	c.t.Helper()
	c.nextID++
	id := jsonrpc.IntID(c.nextID)
	m, err := jsonrpc.NewRequest(id, method, params)
	if err != nil {
		c.t.Fatalf("building %s: %v", method, err)
	}
	c.peer.Send(m)
	return id
}

// Await returns the response to id; messages the server initiates
// meanwhile are queued.
func (c *Client) Await(id jsonrpc.ID) *jsonrpc.Message {
	c.t.Helper()
	for {
		r := c.peer.Next()
		if r.IsResponse() && r.ID != nil && r.ID.Key() == id.Key() {
			return r
		}
		c.queue = append(c.queue, r)
	}
}

// Expect returns the next message the server initiated, which must be a
// request or notification of method.
func (c *Client) Expect(method string) *jsonrpc.Message {
	c.t.Helper()
	var m *jsonrpc.Message
	if len(c.queue) > 0 {
		m, c.queue = c.queue[0], c.queue[1:]
	} else {
		m = c.peer.Next()
	}
	if m.Method != method {
		c.t.Fatalf("the server sent %s (%s), want %s", m.Method, m.Params, method)
	}
	return m
}

// Reply answers a request of the server with a result.
func (c *Client) Reply(req *jsonrpc.Message, result any) {
	c.t.Helper()
	if req.ID == nil {
		c.t.Fatalf("%s is a notification; it takes no answer", req.Method)
	}
	m, err := jsonrpc.NewResult(*req.ID, result)
	if err != nil {
		c.t.Fatal(err)
	}
	c.peer.Send(m)
}

// ReplyError answers a request of the server with an error.
func (c *Client) ReplyError(req *jsonrpc.Message, code int, msg string) {
	c.t.Helper()
	c.peer.Send(jsonrpc.NewErrorResponse(*req.ID, code, msg, nil))
}

// Result decodes the result of a response into v, failing on an error.
func Result[T any](t testing.TB, m *jsonrpc.Message) T {
	t.Helper()
	var v T
	if m.Error != nil {
		t.Fatalf("want a result, got error %d %s", m.Error.Code, m.Error.Message)
	}
	if err := json.Unmarshal(m.Result, &v); err != nil {
		t.Fatalf("result %s: %v", m.Result, err)
	}
	return v
}

// Params decodes the params of a request or notification into v.
func Params[T any](t testing.TB, m *jsonrpc.Message) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(m.Params, &v); err != nil {
		t.Fatalf("%s params %s: %v", m.Method, m.Params, err)
	}
	return v
}

// Code is the error code of a response, failing on a result.
func Code(t testing.TB, m *jsonrpc.Message) int {
	t.Helper()
	if m.Error == nil {
		t.Fatalf("want an error, got result %s", m.Result)
	}
	return m.Error.Code
}

// Respond sends interaction.respond with value (any JSON value).
func (c *Client) Respond(sessionID string, value any) *jsonrpc.Message {
	c.t.Helper()
	v, err := json.Marshal(value)
	if err != nil {
		c.t.Fatal(err)
	}
	return c.Call(mcp.MethodInteractionRespond, mcp.InteractionRespondParams{SessionID: sessionID,
		Response: mcp.InteractionResponse{Value: v, Timestamp: 1704067200000}})
}
