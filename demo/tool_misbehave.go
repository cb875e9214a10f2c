package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Wire-level misbehave modes: the transport's Saboteur performs them.
const (
	// ModeDrop ends the connection without answering (MCP-Flow, stdio).
	ModeDrop = "drop"
	// ModeCutSSE sends an event with an id on the call's SSE stream, then
	// cuts the connection (cleanly after a retry field, or abruptly with
	// "abrupt":true); the answer waits for the client to resume the stream
	// with Last-Event-ID (Streamable HTTP with a session).
	ModeCutSSE = "cut_sse"
	// ModeExpireSession answers, and the session is gone: the next request
	// on it gets 404 (Streamable HTTP with a session, legacy HTTP+SSE).
	ModeExpireSession = "expire_session"
	// ModeWrongContentType answers with Content-Type text/html: an HTML
	// page holding the JSON-RPC response (a POST's own answer).
	ModeWrongContentType = "wrong_content_type"
	// ModeEmptyEvent sends an SSE event with no data field, then answers.
	ModeEmptyEvent = "empty_event"
	// ModeHugeEvent sends one SSE event of "size" bytes (a log line padded
	// to that size, never held in memory whole), then answers.
	ModeHugeEvent = "huge_event"
	// ModeHeartbeatsOnly sends SSE heartbeat comments and never answers,
	// until the call is cancelled.
	ModeHeartbeatsOnly = "heartbeats_only"
)

// Bounds of huge_event's size argument.
const (
	DefaultHugeEvent = 1 << 20
	MaxHugeEvent     = 4 << 30
)

// WebSocket misbehave modes (demo/ws).
const (
	// ModeRFCGUID streams binary chunks whose header carries the stream's
	// GUID in RFC byte order instead of .NET order (gateway).
	ModeRFCGUID = "rfc_guid"
	// ModeIndexGap streams chunks 0, 1, then 3 (gateway).
	ModeIndexGap = "index_gap"
	// ModeUnknownStream sends a chunk for a stream that never started (gateway).
	ModeUnknownStream = "unknown_stream"
	// ModeErrorMidStream sends some chunks, then an error message (gateway).
	ModeErrorMidStream = "error_mid_stream"
	// ModeClose1011 closes the WebSocket with 1011 (internal error).
	ModeClose1011 = "close_1011"
	// ModeOversized sends one text message of "size" bytes.
	ModeOversized = "oversized_message"
)

// GatewayModes are the misbehave modes of the gateway's streams.
var GatewayModes = []string{ModeRFCGUID, ModeIndexGap, ModeUnknownStream, ModeErrorMidStream}

// WebSocketModes are the misbehave modes of every WebSocket dialect.
var WebSocketModes = []string{ModeClose1011, ModeOversized}

// HTTPModes are the misbehave modes of the HTTP transports.
var HTTPModes = []string{ModeCutSSE, ModeExpireSession, ModeWrongContentType, ModeEmptyEvent, ModeHugeEvent, ModeHeartbeatsOnly}

// MisbehaveModes are the modes of the misbehave tool (flow.md and the HTTP modes).
var MisbehaveModes = append(append([]string{"lying_length", "wrong_encoding", "foreign_stream", "stream_error",
	ModeDatagramFlood, ModeNotificationFlood, ModeStreamErrorFlood, ModeShutdownFlood, ModeDrop}, timeoutModes...),
	append(append(HTTPModes[:len(HTTPModes):len(HTTPModes)], GatewayModes...), WebSocketModes...)...)

// wireModes names, for each mode a Saboteur performs, the transport it
// needs, for the refusal where the transport cannot do it.
var wireModes = map[string]string{
	"lying_length": "MCP-Flow", "wrong_encoding": "MCP-Flow", "foreign_stream": "MCP-Flow", ModeDrop: "MCP-Flow",
	ModeStopReading: "MCP-Flow", ModeStreamErrorFlood: "MCP-Flow", ModeShutdownFlood: "MCP-Flow",
	ModeCutSSE: "HTTP", ModeExpireSession: "HTTP", ModeWrongContentType: "HTTP",
	ModeEmptyEvent: "HTTP", ModeHugeEvent: "HTTP", ModeHeartbeatsOnly: "HTTP",
	ModeRFCGUID: "gateway streams (--transport gateway)", ModeIndexGap: "gateway streams (--transport gateway)",
	ModeUnknownStream: "gateway streams (--transport gateway)", ModeErrorMidStream: "gateway streams (--transport gateway)",
	ModeClose1011: "WebSocket", ModeOversized: "WebSocket",
}

// RefuseMode is the -32602 error of a misbehave mode the transport named
// by transport cannot do; it names the transport the mode needs.
func RefuseMode(mode, transport string) *jsonrpc.Error {
	need := wireModes[mode]
	if need == "" {
		need = "another transport"
	}
	return invalidParams("misbehave mode %q needs %s; %s cannot do it", mode, need, transport)
}

// saboteur returns the connection's Saboteur when it can do mode, or the
// refusal.
func (c *Call) saboteur(mode string) (Saboteur, error) {
	if sab, ok := c.conn.out.(Saboteur); ok && slices.Contains(sab.Modes(), mode) {
		return sab, nil
	}
	return nil, RefuseMode(mode, "this transport")
}

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
		`datagram_flood log datagrams; both report the rate reached. cut_sse, expire_session, wrong_content_type, `+
		`empty_event, huge_event and heartbeats_only break HTTP and SSE; rfc_guid, index_gap, unknown_stream and `+
		`error_mid_stream break a gateway stream; close_1011 and oversized_message break WebSocket"},
		"count":{"type":"integer","minimum":1,"maximum":`+fmt.Sprint(MaxFloodCount)+`,
			"description":"floods: how many lines or messages (default `+fmt.Sprint(DefaultFloodCount)+`, or as many as duration_ms allows)"},
		"duration_ms":{"type":"integer","minimum":1,"maximum":`+fmt.Sprint(MaxFloodDuration.Milliseconds())+`,
			"description":"floods: stop after this long"},
		"size":{"type":"integer","minimum":1,"maximum":`+fmt.Sprint(int64(MaxHugeEvent))+`,
			"description":"huge_event: bytes of the event (default `+fmt.Sprint(DefaultHugeEvent)+`); oversized_message: bytes of the message"},
		"abrupt":{"type":"boolean","default":false,
			"description":"cut_sse: reset the connection instead of ending the response after a retry field"}}`, "mode")
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
	}
	if _, wire := wireModes[a.Mode]; wire {
		sab, err := c.saboteur(a.Mode)
		if err != nil {
			return nil, err
		}
		what, err := sab.Sabotage(ctx, a.Mode, c.ID, c.Args)
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
		flow.StreamRef{Type: flow.ContentStreamRef, StreamTag: st.Tag(), MimeType: "application/octet-stream"},
		Text(fmt.Sprintf("stream %d was reset after %d bytes and $/streamError was sent", st.Tag(), streamErrorPayload)),
	}}, nil
}
