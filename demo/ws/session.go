package demows

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// session is one WebSocket connection: the demo connection it drives, in
// its path's dialect. It is the connection's demo.Outbound.
type session struct {
	h    *Handler
	c    *websocket.Conn
	d    dialect
	ctx  context.Context // ends with the connection
	stop context.CancelFunc
	conn *demo.Conn

	streams *streamTable // gateway only
	wg      sync.WaitGroup
}

var (
	_ demo.Outbound = (*session)(nil)
	_ demo.Saboteur = (*session)(nil)
)

// newSession prepares the session of a connection.
func newSession(h *Handler, c *websocket.Conn, d dialect) *session {
	ctx, stop := context.WithCancel(context.Background())
	s := &session{h: h, c: c, d: d, ctx: ctx, stop: stop}
	if d == dialectGateway {
		s.streams = newStreamTable(s)
	}
	return s
}

// run reads messages until the connection ends, then cancels the calls
// and streams still running and waits for them.
func (s *session) run() {
	s.conn = s.h.core.NewConn(s)
	defer func() {
		s.stop()
		if s.streams != nil {
			s.streams.closeAll()
		}
		s.conn.Close()
		s.wg.Wait()
		_ = s.c.CloseNow()
	}()
	if s.d == dialectTools {
		// The first ping goes before anything is read, so that it comes
		// before every answer, however soon the client sends a frame.
		if s.write(websocket.MessageText, pingFrame) != nil {
			return
		}
		s.spawn(s.pings)
	}
	for {
		typ, b, err := s.c.Read(s.ctx)
		if err != nil {
			s.h.opts.Logger.Debug("connection ended", "err", err)
			return
		}
		s.handle(typ, b)
	}
}

// spawn runs f on a goroutine run waits for.
func (s *session) spawn(f func()) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f()
	}()
}

// handle serves one message from the client.
func (s *session) handle(typ websocket.MessageType, b []byte) {
	switch {
	case s.d == dialectGateway && typ == websocket.MessageBinary:
		s.streams.binary(b)
	case s.d == dialectGateway && gateway.IsStreamMessage(b):
		s.streams.text(b)
	case typ == websocket.MessageBinary:
		s.sendError(jsonrpc.ID{}, mcp.CodeInvalidRequest, "binary messages carry nothing here: send JSON as text messages")
	case s.d == dialectTools:
		s.toolFrame(b)
	default:
		s.jsonrpc(b)
	}
}

// jsonrpc decodes one JSON-RPC message and hands it to the connection.
func (s *session) jsonrpc(b []byte) {
	m, refusal, _ := demo.DecodeClientMessage(b, "text message")
	switch {
	case refusal != nil:
		_ = s.Send(refusal)
	case s.d == dialectGateway && s.streams.intercept(m):
	default:
		s.conn.Handle(m)
	}
}

// write sends one message, within the write timeout.
func (s *session) write(typ websocket.MessageType, b []byte) error {
	ctx, cancel := context.WithTimeout(s.ctx, s.h.opts.WriteTimeout)
	defer cancel()
	if err := s.c.Write(ctx, typ, b); err != nil {
		return fmt.Errorf("writing a %d-byte message: %w", len(b), err)
	}
	return nil
}

// errNoAsking refuses the server→client requests seed 004 has no room for.
var errNoAsking = errors.New("tool frames over WebSocket cannot ask the client anything")

// Send writes one JSON-RPC message as a text message. In seed 004's
// dialect the server asks nothing: requests are refused.
func (s *session) Send(m *jsonrpc.Message) error {
	if s.d == dialectTools && m.Kind() == jsonrpc.KindRequest {
		return errNoAsking
	}
	b, err := m.EncodeJSON()
	if err != nil {
		return err
	}
	return s.write(websocket.MessageText, b)
}

// sendError writes an error response.
func (s *session) sendError(id jsonrpc.ID, code int, msg string) {
	_ = s.Send(jsonrpc.NewErrorResponse(id, code, msg, nil))
}

// Emitter returns the emitter of one call: progress and log lines as
// notifications.
func (s *session) Emitter(_ context.Context, info demo.CallInfo) demo.Emitter {
	return demo.NotificationEmitter{Send: s.Send, Token: info.ProgressToken}
}

// toolFrame is seed 004's request frame.
type toolFrame struct {
	ID        json.RawMessage `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Type      json.RawMessage `json:"type"`
}

// toolFrame serves one frame of seed 004's dialect as a tools/call whose
// id is the frame's; the answer, a JSON-RPC envelope, echoes it.
func (s *session) toolFrame(b []byte) {
	m, refusal := decodeToolFrame(b)
	switch {
	case refusal != nil:
		_ = s.Send(refusal)
	case m != nil:
		s.conn.Handle(m)
	}
}

// decodeToolFrame turns a tool frame into its tools/call request, or into
// the error response that refuses it (id null when it has no numeric id).
// A frame with a "type" and no id (a pong, a notice) gives neither: it is
// ignored.
func decodeToolFrame(b []byte) (call, refusal *jsonrpc.Message) {
	var f toolFrame
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, jsonrpc.NewErrorResponse(jsonrpc.ID{}, mcp.CodeParseError, "a tool frame must be a JSON object: "+err.Error(), nil)
	}
	var n int64
	if err := json.Unmarshal(f.ID, &n); err != nil {
		if f.Type != nil && f.ID == nil {
			return nil, nil
		}
		return nil, jsonrpc.NewErrorResponse(jsonrpc.ID{}, mcp.CodeInvalidRequest, "a tool frame needs a numeric id", nil)
	}
	id := jsonrpc.IntID(n)
	if f.Name == "" {
		return nil, jsonrpc.NewErrorResponse(id, mcp.CodeInvalidRequest, "a tool frame needs the name of a tool", nil)
	}
	m, err := jsonrpc.NewRequest(id, mcp.MethodToolsCall, mcp.CallToolParams{Name: f.Name, Arguments: f.Arguments})
	if err != nil {
		return nil, jsonrpc.NewErrorResponse(id, mcp.CodeInvalidRequest, err.Error(), nil)
	}
	return m, nil
}

// pingFrame is the unsolicited frame of seed 004's dialect.
var pingFrame = []byte(`{"type":"ping"}`)

// pings sends {"type":"ping"} every PingInterval after the first, until
// the connection ends.
func (s *session) pings() {
	t := time.NewTicker(s.h.opts.PingInterval)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		if s.write(websocket.MessageText, pingFrame) != nil {
			return
		}
	}
}
