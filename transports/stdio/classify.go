package stdio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// splitLine separates a raw line into its body and its delimiter (LF, CR LF
// or nothing for a last line cut by EOF) and returns proto's annotations.
func splitLine(raw []byte) (body []byte, fields []proto.Field) {
	fields = proto.LineFields(raw)
	n := len(raw)
	if k := len(fields); k > 0 && fields[k-1].Kind == proto.FieldDelimiter {
		n = fields[k-1].Offset
	}
	return raw[:n], fields
}

// classifyLine turns one raw stdout line (delimiter included) into its
// frame and the messages to deliver. A blank line yields no frame. A line
// that is not JSON-RPC yields a frame with Err and no messages. The frame's
// Dir, Conn and Time are left for the caller.
func classifyLine(raw []byte) (*capture.Frame, []*proto.Message) {
	body, fields := splitLine(raw)
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, nil
	}
	f := &capture.Frame{Chan: capture.Channel{Kind: capture.Control}, Raw: raw, Size: len(raw), Fields: fields, Enc: proto.EncJSON}
	msgs, batch, err := proto.DecodeJSON(body)
	if err != nil {
		f.Err = &StdoutLineError{JSON: json.Valid(body), Head: headOf(body), Err: err}
		return f, nil
	}
	if !batch {
		f.Msg = msgs[0]
	}
	return f, msgs
}

// describe names a message in error sentences: "request initialize",
// "result", "notification notifications/progress".
func describe(m *proto.Message) string {
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
