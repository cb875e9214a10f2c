package demows

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Bounds of oversized_message's size argument: the default is just over
// the client's default frame limit; the message is held in memory whole.
const (
	DefaultOversized = flow.DefaultMaxControlFrame + 1024
	MaxOversized     = 64 << 20
)

// Modes are the misbehave modes of the connection's dialect: close_1011
// and oversized_message on every path, the broken streams on the gateway.
func (s *session) Modes() []string {
	if s.d == dialectGateway {
		return append(append([]string{}, demo.WebSocketModes...), demo.GatewayModes...)
	}
	return demo.WebSocketModes
}

// Sabotage performs a WebSocket misbehave mode for a tools/call: it closes
// the connection with 1011 (the call stays unanswered), sends an oversized
// message, or writes a broken stream of the server's own on this
// connection (a fresh stream id, meta.method "misbehave", correlationId
// the call's id) before the call is answered.
func (s *session) Sabotage(ctx context.Context, mode string, id jsonrpc.ID, args json.RawMessage) (string, error) {
	switch mode {
	case demo.ModeClose1011:
		_ = s.c.Close(websocket.StatusInternalError, "misbehave: an internal error on purpose")
		return "", demo.ErrNoAnswer
	case demo.ModeOversized:
		var a struct {
			Size *int64 `json:"size"`
		}
		_ = json.Unmarshal(args, &a)
		n := int64(DefaultOversized)
		if a.Size != nil {
			n = *a.Size
		}
		if n < 1 || n > MaxOversized {
			return "", &jsonrpc.Error{Code: mcp.CodeInvalidParams, Message: fmt.Sprintf("size must be between 1 and %d, got %d", MaxOversized, n)}
		}
		if err := s.write(websocket.MessageText, oversized(n)); err != nil {
			return "", err
		}
		return fmt.Sprintf("sent one text message of %d bytes", n), nil
	}
	g := gateway.NewGUID()
	if err := s.brokenStream(ctx, g, mode, id.String()); err != nil {
		return "", err
	}
	return fmt.Sprintf("streamed %s as stream %s", mode, g), nil
}

// oversized is a notifications/message of n bytes (its data padded).
func oversized(n int64) []byte {
	head := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"misbehave","data":"`
	tail := `"}}`
	pad := max(n-int64(len(head)+len(tail)), 0)
	b := make([]byte, 0, int64(len(head)+len(tail))+pad)
	b = append(b, head...)
	b = append(b, strings.Repeat("x", int(pad))...)
	return append(b, tail...)[:n]
}

// metaMode is which broken stream a start whose meta.method is misbehave
// asks for: its meta's "mode" member, else its meta.name (a field of the
// seed that every client can set).
func metaMode(raw []byte) string {
	var v struct {
		Meta struct {
			Mode string `json:"mode"`
			Name string `json:"name"`
		} `json:"meta"`
	}
	_ = json.Unmarshal(raw, &v)
	if v.Meta.Mode == "" {
		return v.Meta.Name
	}
	return v.Meta.Mode
}

// misbehaveStream answers a start whose meta.method is misbehave with the
// broken stream meta.mode names, as the server's stream id.
func (s *session) misbehaveStream(ctx context.Context, id gateway.GUID, correlation, mode string) error {
	err := s.brokenStream(ctx, id, mode, correlation)
	var perr *jsonrpc.Error
	if errors.As(err, &perr) {
		return s.sendStream(&gateway.StreamMessage{Type: gateway.StreamError, ID: id, Error: perr})
	}
	return err
}

// brokenPayload is the payload of each chunk of a broken stream.
var brokenPayload = []byte("misbehave: 32 bytes of a chunk..")

// brokenStream writes a binary stream id broken as mode says: rfc_guid
// (the header's GUID in RFC byte order), index_gap (chunks 0, 1, 3),
// unknown_stream (a chunk for a stream never started between chunks of
// id), error_mid_stream (two chunks, then error). An unknown mode is a
// *jsonrpc.Error.
func (s *session) brokenStream(ctx context.Context, id gateway.GUID, mode, correlation string) error {
	var plan []func() error
	chunk := func(g gateway.GUID, index int64) func() error {
		return func() error { _, err := s.sendChunk(nil, g, index, brokenPayload); return err }
	}
	done := func(chunks int64) func() error {
		return func() error {
			summary, _ := json.Marshal(map[string]int64{"totalChunks": chunks, "totalBytes": chunks * int64(len(brokenPayload))})
			return s.sendStream(&gateway.StreamMessage{Type: gateway.StreamDone, ID: id, Summary: summary})
		}
	}
	switch mode {
	case demo.ModeRFCGUID:
		rfc := func() error {
			frame := binary.LittleEndian.AppendUint64(append([]byte{}, id[:]...), 0)
			return s.write(websocket.MessageBinary, append(frame, brokenPayload...))
		}
		plan = []func() error{rfc, done(1)}
	case demo.ModeIndexGap:
		plan = []func() error{chunk(id, 0), chunk(id, 1), chunk(id, 3), done(3)}
	case demo.ModeUnknownStream:
		plan = []func() error{chunk(id, 0), chunk(gateway.NewGUID(), 0), chunk(id, 1), done(2)}
	case demo.ModeErrorMidStream:
		fail := func() error {
			return s.sendStream(&gateway.StreamMessage{Type: gateway.StreamError, ID: id, Error: &jsonrpc.Error{Code: mcp.CodeServerError,
				Message: "misbehave: the stream failed midway on purpose", Data: json.RawMessage(`{"afterChunks":2}`)}})
		}
		plan = []func() error{chunk(id, 0), chunk(id, 1), fail}
	default:
		return &jsonrpc.Error{Code: mcp.CodeInvalidParams, Message: fmt.Sprintf("misbehave mode %q breaks no stream; one of %s",
			mode, strings.Join(demo.GatewayModes, ", "))}
	}
	meta := gateway.StreamMeta{Method: methodMisbehave, Binary: true, Name: mode, Mime: "application/octet-stream", CorrelationID: correlation}
	if err := s.sendStream(&gateway.StreamMessage{Type: gateway.StreamStart, ID: id, Meta: &meta}); err != nil {
		return err
	}
	for _, step := range plan {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}
