package capture

import (
	"encoding/json"
	"unsafe"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// nullResult stands in for the result of a message whose decoded bytes were
// dropped, so that Kind still says "result".
var nullResult = json.RawMessage("null")

// decodedBytes is what a decoded message holds: its params, result and
// error data.
func decodedBytes(m *jsonrpc.Message) int64 { return decodedBeside(m, nil) }

// decodedBeside is what a decoded message holds beside raw: its params,
// result and error data, but for a value that is a slice of raw (as a
// decoder that does not copy hands out), whose bytes raw already counts.
// The message's own Raw is taken to alias the frame's Raw and is not
// counted.
func decodedBeside(m *jsonrpc.Message, raw []byte) int64 {
	if m == nil {
		return 0
	}
	n := copied(m.Params, raw)
	if len(m.Result) > 0 && &m.Result[0] != &nullResult[0] {
		n += copied(m.Result, raw)
	}
	if m.Error != nil {
		n += copied(m.Error.Data, raw)
	}
	return n
}

// copied is len(v), or 0 when v lies within raw's bytes.
func copied(v, raw []byte) int64 {
	if len(v) == 0 || len(v) > len(raw) {
		return int64(len(v))
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
	at := uintptr(unsafe.Pointer(unsafe.SliceData(v)))
	if at >= lo && at-lo <= uintptr(len(raw)-len(v)) {
		return 0
	}
	return int64(len(v))
}

// cost is what a held frame costs against the budget: its bytes, which
// stripping gives back, and its metadata, which stays until the frame is
// evicted.
type cost struct {
	raw     int64 // len(Raw)
	decoded int64 // decoded params, result and error data of Msg
	meta    int64 // everything else the frame keeps alive (metaBytes)
}

// total is the whole cost.
func (c cost) total() int64 { return c.raw + c.decoded + c.meta }

// add adds or, with sign -1, takes away d.
func (c *cost) add(d cost, sign int64) {
	c.raw += sign * d.raw
	c.decoded += sign * d.decoded
	c.meta += sign * d.meta
}

// weight is what a held frame costs against the budget.
func weight(f *Frame) cost {
	return cost{raw: int64(len(f.Raw)), decoded: decodedBeside(f.Msg, f.Raw), meta: metaBytes(f)}
}

// Sizes of what a held frame keeps alive beside its bytes.
const (
	frameSize   = int64(unsafe.Sizeof(Frame{}))
	fieldSize   = int64(unsafe.Sizeof(proto.Field{}))
	messageSize = int64(unsafe.Sizeof(jsonrpc.Message{}))
	idSize      = int64(unsafe.Sizeof(jsonrpc.ID{})) + 16 // and a short string id
	errorSize   = int64(unsafe.Sizeof(jsonrpc.Error{}))
	// SlotSize is what a held frame costs in the ring and in the index of
	// a reader such as the TUI (a pointer and a Seq).
	SlotSize = 16
	// decodeErrorSize is an estimate of a decode error value and its text.
	decodeErrorSize = 128
)

// alloc is what an allocation of n bytes takes on the heap: n rounded up
// to the allocator's 16-byte steps.
func alloc(n int64) int64 {
	if n <= 0 {
		return 0
	}
	return (n + 15) &^ 15
}

// spare is what a byte slice holds beyond its length: its spare capacity
// and the allocator's rounding.
func spare(b []byte) int64 { return alloc(int64(cap(b))) - int64(len(b)) }

// spareBeside is spare(v), or 0 when v lies within raw: the capacity of a
// slice of raw runs on into raw's own bytes, which len(raw) and spare(raw)
// count already.
func spareBeside(v, raw []byte) int64 {
	if len(v) > 0 && copied(v, raw) == 0 {
		return 0
	}
	return spare(v)
}

// metaBytes is what a held frame keeps alive beside the bytes counted by
// len(Raw) and decodedBytes: the Frame itself, its slot, the spare capacity
// of its buffers, its annotations, the decoded Msg (envelope, id, method,
// error) and its decode error. Strings a framer shares between frames
// (field names, the connection name) are not counted.
func metaBytes(f *Frame) int64 {
	n := alloc(frameSize) + SlotSize + spare(f.Raw) + alloc(int64(cap(f.Fields))*fieldSize)
	for _, fd := range f.Fields {
		n += alloc(int64(len(fd.Value)))
	}
	if f.Err != nil {
		n += decodeErrorSize
	}
	m := f.Msg
	if m == nil {
		return n
	}
	n += alloc(messageSize) + alloc(int64(len(m.JSONRPC))) + alloc(int64(len(m.Method))) + spareBeside(m.Params, f.Raw)
	if m.ID != nil {
		n += alloc(idSize)
	}
	if len(m.Result) > 0 && &m.Result[0] != &nullResult[0] {
		n += spareBeside(m.Result, f.Raw)
	}
	if e := m.Error; e != nil {
		n += alloc(errorSize) + alloc(int64(len(e.Message))) + spareBeside(e.Data, f.Raw)
	}
	return n
}

// lightMessage returns a copy of m that keeps what a list of frames shows
// (version, id, method, error code and message) and drops the decoded bytes.
func lightMessage(m *jsonrpc.Message) *jsonrpc.Message {
	if !messageHoldsBytes(m) {
		return m
	}
	l := &jsonrpc.Message{JSONRPC: m.JSONRPC, ID: m.ID, Method: m.Method}
	if m.Error != nil {
		l.Error = &jsonrpc.Error{Code: m.Error.Code, Message: m.Error.Message}
	} else if m.Result != nil {
		l.Result = nullResult
	}
	return l
}

// messageHoldsBytes reports whether m holds bytes a light copy would drop.
func messageHoldsBytes(m *jsonrpc.Message) bool {
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
	if int64(len(f.Raw))+decodedBeside(f.Msg, f.Raw) > int64(limit) {
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
