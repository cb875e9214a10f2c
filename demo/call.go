package demo

import (
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Errors an Emitter returns when its transport lacks a feature. Tools test
// for them with errors.Is and fall back (read_file inline, tone as a clip).
var (
	ErrNoStreams   = errors.New("this transport has no execution streams")
	ErrNoDatagrams = errors.New("this transport has no datagrams")
	// ErrNoAnswer, returned by a Saboteur, means the call must stay unanswered.
	ErrNoAnswer = errors.New("the call is left unanswered on purpose")
)

// CodeCancelled is the code of the answer to a request cancelled with
// $/cancel (seed 000 §6: {"code":-32000,"message":"Cancelled"}).
const CodeCancelled = -32000

// Emitter is what a tool handler may send besides its result, over the
// channels the transport has. Its methods are safe for concurrent use.
type Emitter interface {
	// Progress reports progress of the call (a progress datagram on MCP-Flow,
	// notifications/progress on stdio when the request carried a token).
	Progress(progress, total float64, message string) error
	// Log sends a log line about the call (a log datagram on MCP-Flow,
	// notifications/message on stdio). data is any JSON value.
	Log(level, logger string, data any) error
	// Audio sends one datagram of raw PCM (s16le mono 16 kHz), or returns
	// ErrNoDatagrams.
	Audio(pcm []byte) error
	// OpenStream reserves an execution stream for the call, or returns
	// ErrNoStreams, or a *jsonrpc.Error when the stream limit is reached or the
	// session is shutting down. Nothing reaches the wire before the first
	// Write or WriteHeader.
	OpenStream() (ExecStream, error)
}

// ExecStream is one execution stream of a call: the payload after an 8-byte
// header (request id, stream tag). It is used from one goroutine.
type ExecStream interface {
	io.Writer
	// Tag is the stream tag the result refers to with a ref/stream item.
	Tag() uint32
	// WriteHeader sends the stream header now, before any payload.
	WriteHeader() error
	// Close ends the payload (FIN) and frees the stream's slot.
	Close() error
	// Abort resets the stream and tells the client why ($/streamError).
	Abort(reason string)
}

// Saboteur is implemented by an Outbound that can break its own wire format
// on purpose, for the misbehave modes that need the transport's bytes
// (lying_length, wrong_encoding, foreign_stream and drop on MCP-Flow; the
// HTTP modes such as cut_sse). Modes lists the modes it can do; the tool
// refuses the others, naming the transport they need. Sabotage gets the
// call's id and arguments and returns what it did, for the result text;
// ErrNoAnswer leaves the call unanswered; a *jsonrpc.Error refuses the mode.
type Saboteur interface {
	Modes() []string
	Sabotage(ctx context.Context, mode string, id jsonrpc.ID, args json.RawMessage) (string, error)
}

// ContextSender is implemented by an Outbound that puts the messages of a
// call where that call's messages go (Streamable HTTP: on the POST's own
// stream). The core sends the requests a tool makes (elicitation/create) and
// the lines of a notification flood with SendContext and the call's context
// (see CallID); messages of no call go through Send.
type ContextSender interface {
	SendContext(ctx context.Context, m *jsonrpc.Message) error
}

// callKey keys the request id of a tools/call in its context.
type callKey struct{}

// CallID returns the request id of the tools/call whose context ctx is (or
// derives from).
func CallID(ctx context.Context) (jsonrpc.ID, bool) {
	id, ok := ctx.Value(callKey{}).(jsonrpc.ID)
	return id, ok
}

// sendFor sends m as a message of the call whose context ctx is, when the
// transport tells calls apart; else as any message.
func (c *Conn) sendFor(ctx context.Context, m *jsonrpc.Message) error {
	if cs, ok := c.out.(ContextSender); ok {
		return cs.SendContext(ctx, m)
	}
	return c.out.Send(m)
}

// CallInfo identifies one tools/call for the transport.
type CallInfo struct {
	ID            jsonrpc.ID
	ProgressToken *jsonrpc.ID // _meta.progressToken of the request, if any
}

// Call is one tools/call as its handler sees it.
type Call struct {
	ID   jsonrpc.ID
	Args json.RawMessage // the arguments object (may be empty)
	Emit Emitter

	conn  *Conn
	state *callState
}

// ToolHandler runs a tool. It returns the result, or an error: a
// *jsonrpc.Error is sent as is, any other error as -32603. A handler that has
// called Respond returns (nil, nil), or the error that ended its work.
type ToolHandler func(ctx context.Context, c *Call) (*ToolResult, error)

// Respond sends the result now, before the handler returns, so that a tool
// can answer and then keep writing an execution stream. Later answers of
// the call are dropped.
func (c *Call) Respond(res *ToolResult) error {
	if !c.state.claimAnswer() {
		return errors.New("the call was answered already")
	}
	m, err := jsonrpc.NewResult(c.ID, res)
	if err != nil {
		return err
	}
	return c.conn.out.Send(m)
}

// decodeArgs decodes the arguments of c into v, phrasing a failure as -32602.
func decodeArgs(c *Call, v any) error {
	if len(c.Args) == 0 || string(c.Args) == "null" {
		return nil
	}
	if err := json.Unmarshal(c.Args, v); err != nil {
		return invalidParams("the arguments do not fit the tool's input schema: %v", err)
	}
	return nil
}
