package webtransport

import (
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// ErrServerShutdown is Err after the server ended the session with $/shutdown.
var ErrServerShutdown = errors.New("the server shut the MCP-Flow session down ($/shutdown)")

// errNeverArrived says a referenced stream did not come before the session ended.
var errNeverArrived = errors.New("the session ended before the stream arrived")

// errControlClosed says the server closed its side of the control stream.
var errControlClosed = errors.New("the server closed the control stream")

// ClosedMidFrameError reports the bytes of a control frame that were read
// when mcpscope itself closed the session (after a $/shutdown, say): the
// server was still writing, so the frame is cut short by the client's own
// close, not broken by the server. The bytes stay in the capture.
type ClosedMidFrameError struct {
	Err error // the read's error
}

func (e *ClosedMidFrameError) Error() string {
	return "a control frame was cut short when mcpscope closed the session: " + e.Err.Error()
}

// Unwrap returns the read's error.
func (e *ClosedMidFrameError) Unwrap() error { return e.Err }

// CutByClient is true: mcpscope's own close cut the frame
// (capture.CutByClient).
func (e *ClosedMidFrameError) CutByClient() bool { return true }

// StreamInjectionError reports an execution stream whose header names a
// request that is not in flight (-32002 Stream Injection). The stream was
// reset and its payload never read.
type StreamInjectionError struct {
	Header flow.ExecStreamHeader
	Reason string // why it was not expected
}

// Code returns -32002.
func (e *StreamInjectionError) Code() int { return mcp.CodeFlowStreamInjection }

func (e *StreamInjectionError) Error() string {
	return fmt.Sprintf("%s: the server opened an execution stream for request %d tag %d, but %s; the stream was reset",
		flowCode(e.Code()), e.Header.RequestID, e.Header.StreamTag, e.Reason)
}

// EncodingMismatchError reports a control frame that is not in the
// negotiated encoding (-32003 Encoding Mismatch). It was not delivered; the
// session goes on.
type EncodingMismatchError struct {
	Negotiated proto.Encoding // what both sides agreed on
	Got        proto.Encoding // what the frame turned out to be
}

// Code returns -32003.
func (e *EncodingMismatchError) Code() int { return mcp.CodeFlowEncodingMismatch }

func (e *EncodingMismatchError) Error() string {
	return fmt.Sprintf("%s: the server sent a %s frame after %s was negotiated; it was not delivered",
		flowCode(e.Code()), e.Got, e.Negotiated)
}

// DecodeError reports a control frame that decodes in no encoding (-32700).
type DecodeError struct {
	Enc proto.Encoding // the encoding in force
	Err error
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("%s: the server sent a control frame that is not a %s JSON-RPC message: %v",
		flowCode(mcp.CodeParseError), e.Enc, e.Err)
}

// Unwrap returns the decoder's reason.
func (e *DecodeError) Unwrap() error { return e.Err }

// StreamFailedError says an execution stream did not deliver its whole
// payload: the server reported a failure ($/streamError), reset it, the
// session ended, or its payload could not be stored.
type StreamFailedError struct {
	RequestID, StreamTag uint32
	Bytes                int64  // payload bytes received before it failed
	Reported             string // the server's $/streamError reason, if any
	Err                  error  // the local cause, if any
}

func (e *StreamFailedError) Error() string {
	msg := fmt.Sprintf("execution stream %d/%d failed after %d bytes", e.RequestID, e.StreamTag, e.Bytes)
	if e.Reported != "" {
		msg += fmt.Sprintf(": the server reported %q", e.Reported)
		if e.Err != nil {
			msg += fmt.Sprintf(" (%v)", e.Err)
		}
		return msg
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the local cause.
func (e *StreamFailedError) Unwrap() error { return e.Err }

// flowCode renders a code with its MCP-Flow name: "-32002 Stream Injection".
func flowCode(code int) string {
	return fmt.Sprintf("%d %s", code, mcp.ErrorName(mcp.DialectMCPFlow, code))
}
