package capture

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/proto"
)

// nullResult stands in for the result of a message whose decoded bytes were
// dropped, so that Kind still says "result".
var nullResult = json.RawMessage("null")

// decodedBytes is what a decoded message holds beside the frame's Raw: its
// params, result and error data (json.RawMessage values are copies). The
// message's own Raw is taken to alias the frame's Raw and is not counted.
func decodedBytes(m *proto.Message) int64 {
	if m == nil {
		return 0
	}
	n := int64(len(m.Params))
	if len(m.Result) > 0 && &m.Result[0] != &nullResult[0] {
		n += int64(len(m.Result))
	}
	if m.Error != nil {
		n += int64(len(m.Error.Data))
	}
	return n
}

// weight is what a held frame costs against the byte budget.
func weight(f *Frame) (raw, decoded int64) {
	return int64(len(f.Raw)), decodedBytes(f.Msg)
}

// lightMessage returns a copy of m that keeps what a list of frames shows
// (version, id, method, error code and message) and drops the decoded bytes.
func lightMessage(m *proto.Message) *proto.Message {
	if !messageHoldsBytes(m) {
		return m
	}
	l := &proto.Message{JSONRPC: m.JSONRPC, ID: m.ID, Method: m.Method}
	if m.Error != nil {
		l.Error = &proto.Error{Code: m.Error.Code, Message: m.Error.Message}
	} else if m.Result != nil {
		l.Result = nullResult
	}
	return l
}

// messageHoldsBytes reports whether m holds bytes a light copy would drop.
func messageHoldsBytes(m *proto.Message) bool {
	return m != nil && (m.Raw != nil || decodedBytes(m) > 0)
}

// holdsBytes reports whether a held frame still costs bytes of the budget.
func holdsBytes(f *Frame) bool {
	return len(f.Raw) > 0 || messageHoldsBytes(f.Msg)
}

// capFrame prepares f to be held: Size is at least len(Raw), and a frame
// heavier than limit keeps a copy of its first limit bytes (so the large
// buffer can be freed) and a light message. It reports whether it cut.
func capFrame(f *Frame, limit int) bool {
	if f.Size < len(f.Raw) {
		f.Size = len(f.Raw)
	}
	cut := false
	if int64(len(f.Raw))+decodedBytes(f.Msg) > int64(limit) {
		if len(f.Raw) > limit {
			f.Raw = append([]byte(nil), f.Raw[:limit]...)
		}
		f.Msg = lightMessage(f.Msg)
		f.Fields = fieldsWithin(f.Fields, len(f.Raw))
		cut = true
	}
	f.Kept = len(f.Raw)
	return cut
}

// fieldsWithin keeps the annotations that start inside the first n bytes.
func fieldsWithin(fields []proto.Field, n int) []proto.Field {
	var kept []proto.Field
	for _, fd := range fields {
		if fd.Offset >= 0 && fd.Offset < n {
			kept = append(kept, fd)
		}
	}
	return kept
}

// stripped returns a copy of f without its bytes: metadata, annotations and
// a light message remain, Kept is 0, Size is unchanged.
func stripped(f *Frame) *Frame {
	c := *f
	c.Raw = nil
	c.Kept = 0
	c.Msg = lightMessage(f.Msg)
	return &c
}
