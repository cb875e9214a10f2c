package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/proto"
)

// MisbehaveModes are the modes of the misbehave tool (flow.md).
var MisbehaveModes = append([]string{"lying_length", "wrong_encoding", "foreign_stream", "stream_error",
	ModeDatagramFlood, ModeNotificationFlood, ModeStreamErrorFlood, ModeShutdownFlood, "drop"}, timeoutModes...)

// Sizes of the stream_error mode.
const (
	streamErrorPayload = 4096
	streamErrorPause   = 50 * time.Millisecond
)

// misbehaveSchema is the input schema of misbehave.
func misbehaveSchema() json.RawMessage {
	modes, err := json.Marshal(MisbehaveModes)
	if err != nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	return schema(`{"mode":{"type":"string","enum":`+string(modes)+`,
			"description":"notification_flood sends notifications/message lines as fast as the transport takes them, `+
		`datagram_flood log datagrams; both report the rate reached"},
		"count":{"type":"integer","minimum":1,"maximum":`+fmt.Sprint(MaxFloodCount)+`,
			"description":"floods: how many lines or messages (default `+fmt.Sprint(DefaultFloodCount)+`, or as many as duration_ms allows)"},
		"duration_ms":{"type":"integer","minimum":1,"maximum":`+fmt.Sprint(MaxFloodDuration.Milliseconds())+`,
			"description":"floods: stop after this long"}}`, "mode")
}

// misbehave breaks the protocol on purpose, as its mode says.
func misbehave(ctx context.Context, c *Call) (*ToolResult, error) {
	var a struct {
		Mode string `json:"mode"`
		floodArgs
	}
	if err := decodeArgs(c, &a); err != nil {
		return nil, err
	}
	switch a.Mode {
	case "stream_error":
		return streamError(ctx, c)
	case ModeDatagramFlood, ModeNotificationFlood:
		return flood(ctx, c, a.Mode, a.floodArgs)
	case ModeStreamErrorFlood, ModeShutdownFlood:
		return controlFlood(ctx, c, a.Mode, a.floodArgs)
	case "lying_length", "wrong_encoding", "foreign_stream", "drop", ModeStopReading:
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
	if run := runTimeoutMode(a.Mode); run != nil {
		return run(ctx, c)
	}
	return nil, invalidParams("unknown misbehave mode %q; one of %s", a.Mode, strings.Join(MisbehaveModes, ", "))
}

// streamError opens a stream for the call, writes some bytes, then resets it
// with $/streamError, and answers with a result that refers to the stream.
func streamError(ctx context.Context, c *Call) (*ToolResult, error) {
	st, err := openStreamWith(c, "stream_error", streamErrorPayload)
	if err != nil {
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
		Text(fmt.Sprintf("stream %d was reset after %d bytes and $/streamError was sent", st.Tag(), streamErrorPayload)),
	}}, nil
}
