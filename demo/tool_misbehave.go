package demo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/proto"
)

// MisbehaveModes are the modes of the misbehave tool (flow.md).
var MisbehaveModes = []string{"lying_length", "wrong_encoding", "foreign_stream", "stream_error", "datagram_flood", "drop"}

// Sizes of the misbehave modes that the core runs itself.
const (
	DefaultFloodCount  = 50000
	maxFloodCount      = 1000000
	streamErrorPayload = 4096
	streamErrorPause   = 50 * time.Millisecond
)

// misbehave breaks the protocol on purpose, as its mode says.
func misbehave(ctx context.Context, c *Call) (*ToolResult, error) {
	var a struct {
		Mode  string `json:"mode"`
		Count int    `json:"count"`
	}
	if err := decodeArgs(c, &a); err != nil {
		return nil, err
	}
	switch a.Mode {
	case "stream_error":
		return streamError(ctx, c)
	case "datagram_flood":
		return datagramFlood(ctx, c, a.Count)
	case "lying_length", "wrong_encoding", "foreign_stream", "drop":
		sab, ok := c.conn.out.(Saboteur)
		if !ok {
			return nil, invalidParams("misbehave mode %q needs MCP-Flow; this transport cannot do it", a.Mode)
		}
		what, err := sab.Sabotage(ctx, a.Mode, c.ID)
		if err != nil {
			return nil, err
		}
		return TextResult("misbehaved: " + what), nil
	}
	return nil, invalidParams("unknown misbehave mode %q; one of %s", a.Mode, strings.Join(MisbehaveModes, ", "))
}

// streamError opens a stream for the call, writes some bytes, then resets it
// with $/streamError, and answers with a result that refers to the stream.
func streamError(ctx context.Context, c *Call) (*ToolResult, error) {
	st, err := c.Emit.OpenStream()
	if errors.Is(err, ErrNoStreams) {
		return nil, invalidParams("misbehave mode \"stream_error\" needs execution streams (MCP-Flow)")
	}
	if err != nil {
		return nil, err
	}
	chunk := make([]byte, streamErrorPayload)
	for i := range chunk {
		chunk[i] = GeneratedByte(int64(i), 0)
	}
	if _, err := st.Write(chunk); err != nil {
		st.Abort(err.Error())
		return nil, err
	}
	// A reset discards what the client has not read yet, so give the bytes
	// a moment to arrive first, as a transfer failing midway would.
	if err := sleep(ctx, streamErrorPause); err != nil {
		st.Abort(err.Error())
		return nil, err
	}
	st.Abort("misbehave: stream reset on purpose mid-transfer")
	return &ToolResult{Content: []any{
		proto.StreamRef{Type: proto.ContentStreamRef, StreamTag: st.Tag(), MimeType: "application/octet-stream"},
		Text(fmt.Sprintf("stream %d was reset after %d bytes and $/streamError was sent", st.Tag(), len(chunk))),
	}}, nil
}

// datagramFlood sends count log lines (datagrams on MCP-Flow) as fast as
// the transport takes them, then answers.
func datagramFlood(ctx context.Context, c *Call, count int) (*ToolResult, error) {
	if count == 0 {
		count = DefaultFloodCount
	}
	if count < 0 || count > maxFloodCount {
		return nil, invalidParams("count must be between 1 and %d, got %d", maxFloodCount, count)
	}
	for i := 1; i <= count; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := c.Emit.Log("info", "flood", i); err != nil {
			return nil, rpcError(proto.CodeInternalError, nil, "the flood stopped after %d of %d log lines: %v", i-1, count, err)
		}
	}
	return TextResult(fmt.Sprintf("flood sent: %d log datagrams", count)), nil
}
