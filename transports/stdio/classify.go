package stdio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// splitLine separates a raw line into its body and its delimiter (LF, CR LF
// or nothing for a last line cut by EOF) and returns proto's annotations.
func splitLine(raw []byte) (body []byte, fields []proto.Field) {
	fields = jsonrpc.LineFields(raw)
	n := len(raw)
	if k := len(fields); k > 0 && fields[k-1].Kind == proto.FieldDelimiter {
		n = fields[k-1].Offset
	}
	return raw[:n], fields
}

// classifyStdout turns one line read from stdout into its frame and the
// messages to deliver. A line over the limit keeps only its head; when the
// head shows the id of an answer, a message carrying the LineTooLongError
// as its Violation is delivered so that the request fails at once.
func classifyStdout(ln line, max int) (*capture.Frame, []*jsonrpc.Message) {
	if !ln.tooLong {
		return classifyLine(ln.raw)
	}
	f := tooLongFrame(capture.Channel{Kind: capture.Control}, proto.EncJSON, ln, max)
	if m := jsonrpc.NewViolation(ln.raw, f.Err); m != nil {
		return f, []*jsonrpc.Message{m}
	}
	return f, nil
}

// classifyLine turns one raw stdout line (delimiter included) into its
// frame and the messages to deliver. A blank line yields no frame. A line
// that is not JSON-RPC yields a frame with Err and delivers only what
// proto can still deliver of it: the good items of a batch, and messages
// carrying a Violation for the answers it names. A message whose text was
// not clean (a byte order mark, invalid UTF-8) is delivered and its frame
// carries the *jsonrpc.TextWarning. The frame's Dir, Conn and Time are left
// for the caller.
func classifyLine(raw []byte) (*capture.Frame, []*jsonrpc.Message) {
	body, fields := splitLine(raw)
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, nil
	}
	f := &capture.Frame{Chan: capture.Channel{Kind: capture.Control}, Raw: raw, Size: len(raw), Fields: fields, Enc: proto.EncJSON}
	msgs, batch, err := jsonrpc.DecodeJSON(body)
	if err != nil {
		f.Err = &StdoutLineError{JSON: isJSON(body, err), Head: headOf(body), Err: err}
		return f, msgs
	}
	if !batch {
		f.Msg = msgs[0]
	}
	f.Err = jsonrpc.CheckText(body)
	return f, msgs
}

// isJSON reports whether a line that failed to decode is JSON all the same
// (JSON nested too deep or followed by more data counts as JSON).
func isJSON(body []byte, err error) bool {
	var env *jsonrpc.EnvelopeError
	if errors.As(err, &env) {
		return !env.Malformed
	}
	return errors.Is(err, jsonrpc.ErrNestedTooDeep) || json.Valid(body)
}

// describe names a message in error sentences: "request initialize",
// "result", "notification notifications/progress".
func describe(m *jsonrpc.Message) string {
	if m.Method != "" {
		return m.Kind().String() + " " + m.Method
	}
	return m.Kind().String()
}

// tooLongFrame reports a line over the limit: its head, its true size and
// why it was dropped.
func tooLongFrame(ch capture.Channel, enc proto.Encoding, ln line, max int) *capture.Frame {
	return &capture.Frame{
		Chan:   ch,
		Raw:    ln.raw,
		Kept:   len(ln.raw),
		Size:   clampInt(ln.size),
		Fields: []proto.Field{{Offset: 0, Len: len(ln.raw), Name: "body (head)", Value: fmt.Sprintf("first %d of %d bytes", len(ln.raw), ln.size), Kind: proto.FieldBody}},
		Enc:    enc,
		Err:    &LineTooLongError{Size: ln.size, Max: max},
	}
}

// clampInt converts a byte count to int without wrapping on 32-bit systems.
func clampInt(n int64) int {
	if n > math.MaxInt {
		return math.MaxInt
	}
	return int(n)
}
