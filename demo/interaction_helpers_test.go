package demo

import (
	"context"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/demo/internal/wizardtest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// wire is an Outbound that queues what the server sends, in order. hold,
// when set, is called before a message is queued (it may block).
type wire struct {
	out  chan *jsonrpc.Message
	hold func(*jsonrpc.Message)
}

func (w *wire) Send(m *jsonrpc.Message) error {
	b, err := m.EncodeJSON()
	if err != nil {
		return err
	}
	if w.hold != nil {
		w.hold(m)
	}
	back, err := jsonrpc.DecodeMessage(b) // what a client would read
	if err != nil {
		return err
	}
	w.out <- back
	return nil
}

func (w *wire) Emitter(context.Context, CallInfo) Emitter { return recEmitter{newRecorder()} }

// corePeer is a raw client of a Conn: wizardtest.Peer over the core.
type corePeer struct {
	t *testing.T
	c *Conn
	w *wire
}

func (p *corePeer) Send(m *jsonrpc.Message) {
	b, err := m.EncodeJSON()
	if err != nil {
		p.t.Fatal(err)
	}
	back, err := jsonrpc.DecodeMessage(b)
	if err != nil {
		p.t.Fatal(err)
	}
	p.c.Handle(back)
}

func (p *corePeer) Next() *jsonrpc.Message {
	p.t.Helper()
	select {
	case m := <-p.w.out:
		return m
	case <-time.After(guard.Hang):
		p.t.Fatalf("the server sent nothing within %s", guard.Hang)
		return nil
	}
}

// coreClient connects a raw client to a fresh connection of s.
func coreClient(t *testing.T, s *Server) (*wizardtest.Client, *corePeer) {
	t.Helper()
	w := &wire{out: make(chan *jsonrpc.Message, 1024)}
	p := &corePeer{t: t, c: s.NewConn(w), w: w}
	t.Cleanup(p.c.Close)
	return wizardtest.New(t, p), p
}

// startSession starts tool with params and returns the start result.
func startSession(t *testing.T, c *wizardtest.Client, p mcp.InteractionStartParams) mcp.InteractionStartResult {
	t.Helper()
	return wizardtest.Result[mcp.InteractionStartResult](t, c.Call(mcp.MethodInteractionStart, p))
}

// getState reads a session's state.
func getState(t *testing.T, c *wizardtest.Client, id string) mcp.InteractionStateResult {
	t.Helper()
	return wizardtest.Result[mcp.InteractionStateResult](t, c.Call(mcp.MethodInteractionGetState, mcp.InteractionGetStateParams{SessionID: id}))
}

// cancelSession sends interaction.cancel.
func cancelSession(c *wizardtest.Client, id string) *jsonrpc.Message {
	return c.Call(mcp.MethodInteractionCancel, mcp.InteractionCancelParams{SessionID: id})
}

// waitState polls getState until the session is in want (a hang guard
// bounds it; nothing is timed).
func waitState(t *testing.T, c *wizardtest.Client, id string, want mcp.InteractionState) mcp.InteractionStateResult {
	t.Helper()
	deadline := time.Now().Add(guard.Hang)
	for {
		st := getState(t, c, id)
		if st.State == want {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("session %s stayed %s for %s, want %s", id, st.State, guard.Hang, want)
		}
		time.Sleep(time.Millisecond)
	}
}
