package findings

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/fxamacker/cbor/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/sse"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// noteBroken reports what is wrong with the bytes of a control or stream
// frame that carries a decode error: text that is not clean UTF-8, a
// line over the limit, a lying length prefix, an index gap, a body that
// is not JSON-RPC. The bytes are read again (proto's decoders), so a
// frame from a recording, whose error is only its text, is judged as a
// live one is.
func noteBroken(s *session, r *report) {
	f := r.f
	if f.Err == nil || capture.CutByClient(f.Err) {
		return
	}
	body, lo := bodyOf(f)
	var coded interface{ Code() int }
	if f.Dir == capture.In && errors.As(f.Err, &coded) && coded.Code() == mcp.CodeFlowEncodingMismatch {
		r.add(CodeEncodingMismatch, f.Err.Error(), lo, len(body), "")
		return
	}
	if f.Msg != nil {
		if f.Enc == proto.EncJSON {
			noteText(r, body, lo)
		}
		return // any other complaint (a second answer) is the answers' to judge
	}
	if f.Dir != capture.In {
		return
	}
	var (
		tooLarge *flow.FrameTooLargeError
		gap      *gateway.IndexGapError
		event    *sse.LimitError
	)
	switch {
	case errors.As(f.Err, &event):
		r.add(CodeFrameOverLimit, fmt.Sprintf("an SSE %s over the %d-byte frame limit (--max-frame-size); mcpscope stopped reading the stream", event.Limit, event.Max), 0, 0, "")
	case errors.As(f.Err, &tooLarge):
		r.add(CodeLengthOverMax, fmt.Sprintf("the length prefix claims %d bytes, over the %d-byte limit; the frame was not read", tooLarge.Size, tooLarge.Max), prefixAt(f), flow.ControlHeaderLen, "")
	case errors.As(f.Err, &gap):
		off, n := indexAt(f)
		r.add(CodeStreamIndexGap, gap.Error(), off, n, "")
	case lyingPrefix(r):
	case shortPrefix(r, body):
	case f.Size > len(f.Raw) && f.Kept >= len(f.Raw) && !decodes(body):
		r.add(CodeFrameOverLimit, fmt.Sprintf("a message of %d bytes, over the frame limit (--max-frame-size); only its first %d were kept", f.Size, len(f.Raw)), 0, 0, "")
	default:
		notJSONRPC(s, r, body, lo)
	}
}

// noteText reports a message whose text is not clean: a byte order mark,
// bytes that are not UTF-8.
func noteText(r *report, body []byte, lo int) {
	var w *jsonrpc.TextWarning
	if !errors.As(jsonrpc.CheckText(body), &w) {
		return
	}
	if w.BOM {
		r.add(CodeByteOrderMark, "the message starts with a UTF-8 byte order mark", lo, 3, "")
	}
	if w.InvalidAt >= 0 {
		off, n := spanOf(r.f, lo+w.InvalidAt, 1)
		r.add(CodeInvalidUTF8, fmt.Sprintf("invalid UTF-8 at byte %d of the message, read as U+FFFD", w.InvalidAt), off, n, "")
	}
}

// lyingPrefix reports an MCP-Flow frame whose length prefix declares more
// bytes than came before the stream ended, and says whether it did.
func lyingPrefix(r *report) bool {
	f := r.f
	at := prefixAt(f)
	if at < 0 || at+flow.ControlHeaderLen > len(f.Raw) {
		return false
	}
	declared := int64(binary.BigEndian.Uint32(f.Raw[at:]))
	got := int64(f.Size - at - flow.ControlHeaderLen)
	if declared <= got {
		return false
	}
	r.add(CodeLengthPastBody, fmt.Sprintf("the length prefix claims %d bytes, but the stream ended after %d", declared, got), at, flow.ControlHeaderLen, "")
	return true
}

// shortPrefix reports an MCP-Flow frame whose length prefix declares
// fewer bytes than its message holds: the bytes it declares hold the
// start of a JSON or CBOR item that ends early, and the rest of the
// message is then read as the next frame. It says whether it did.
func shortPrefix(r *report, body []byte) bool {
	f := r.f
	at := prefixAt(f)
	if at < 0 || len(body) == 0 || f.Size > len(f.Raw) || !endsEarly(f.Enc, body) {
		return false
	}
	r.add(CodeLengthShort, fmt.Sprintf("the length prefix claims %d bytes, but the %s message in them ends early: "+
		"the prefix is too short, and what follows is read as the next frame", len(body), f.Enc), at, flow.ControlHeaderLen, "")
	return true
}

// endsEarly says whether body is the start of one JSON or CBOR item cut
// short: well formed up to its end, where more was needed.
func endsEarly(enc proto.Encoding, body []byte) bool {
	switch enc {
	case proto.EncJSON:
		var syntax *json.SyntaxError
		err := json.Unmarshal(body, new(json.RawMessage))
		return errors.As(err, &syntax) && syntax.Offset == int64(len(body)) && strings.HasPrefix(syntax.Error(), "unexpected end")
	case proto.EncCBOR:
		return errors.Is(cbor.Wellformed(body), io.ErrUnexpectedEOF)
	}
	return false
}

// prefixAt is where an MCP-Flow frame's length prefix lies, or -1.
func prefixAt(f *capture.Frame) int {
	if fd, ok := field(f, "length"); ok && fd.Kind == proto.FieldHeader && fd.Len == flow.ControlHeaderLen {
		return fd.Offset
	}
	return -1
}

// indexAt is where a gateway chunk's header names its index: the bytes of
// its "index" annotation, or the whole frame.
func indexAt(f *capture.Frame) (off, n int) {
	if fd, ok := field(f, "index"); ok {
		return fd.Offset, fd.Len
	}
	return 0, 0
}

// notJSONRPC reports a body that is not a JSON-RPC message, named for
// the transport it came on: a line on stdout, an HTTP body or SSE event,
// another message.
func notJSONRPC(s *session, r *report, body []byte, lo int) {
	f := r.f
	if f.Enc != proto.EncJSON || len(body) == 0 {
		r.add(CodeFrameUndecoded, "mcpscope could not read the frame: "+f.Err.Error(), 0, 0, "")
		return
	}
	_, _, err := jsonrpc.DecodeJSON(body)
	if err == nil {
		r.add(CodeFrameUndecoded, "mcpscope did not deliver the message: "+f.Err.Error(), lo, len(body), "")
		return
	}
	isJSON := json.Valid(body) || errors.Is(err, jsonrpc.ErrNestedTooDeep)
	var env *jsonrpc.EnvelopeError
	if errors.As(err, &env) {
		isJSON = !env.Malformed
	}
	what := "a message"
	code := CodeMessageNotJSONRPC
	switch {
	case lineDelimited(f) && !s.http:
		what, code = "a line on stdout", CodeStdoutNotJSONRPC
		if !isJSON {
			code = CodeStdoutNotJSON
		}
	case s.http:
		what, code = "an HTTP body", CodeBodyNotJSONRPC
	}
	kind := "JSON that is not a JSON-RPC message"
	if !isJSON {
		kind = "not JSON"
	}
	r.add(code, fmt.Sprintf("%s is %s: %s (%s)", what, kind, quote(string(body)), rootCause(err)), lo, len(body), "")
}

// lineDelimited says whether a frame is a line of a stream of lines (its
// last annotation an LF or CR LF delimiter), as stdio frames are.
func lineDelimited(f *capture.Frame) bool {
	n := len(f.Fields)
	return n > 0 && f.Fields[n-1].Kind == proto.FieldDelimiter && f.Fields[n-1].Name == "delimiter"
}

// decodes says whether body is a JSON-RPC message.
func decodes(body []byte) bool {
	_, _, err := jsonrpc.DecodeJSON(body)
	return err == nil
}

// rootCause is the innermost error's text.
func rootCause(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

// bodyOf returns a frame's body and its offset in Raw: the first range
// its framer annotated as the body, clipped to the bytes held, or all of
// Raw. The body of an SSE event of several data lines is those lines
// joined (offset that of the first): spanOf maps its offsets back.
func bodyOf(f *capture.Frame) ([]byte, int) {
	if segs := dataLines(f); len(segs) > 1 {
		var joined []byte
		for i, sg := range segs {
			if i > 0 {
				joined = append(joined, '\n')
			}
			joined = append(joined, f.Raw[sg.lo:sg.hi]...)
		}
		return joined, segs[0].lo
	}
	for _, fd := range f.Fields {
		if fd.Kind == proto.FieldBody {
			lo, hi := clip(f, fd.Offset, fd.Len)
			return f.Raw[lo:hi], lo
		}
	}
	return f.Raw, 0
}

// segment is the bytes [lo, hi) of a frame's Raw.
type segment struct{ lo, hi int }

// clip bounds the range of n bytes at off to the bytes held.
func clip(f *capture.Frame, off, n int) (lo, hi int) {
	lo = min(max(off, 0), len(f.Raw))
	return lo, min(max(off+n, lo), len(f.Raw))
}

// dataLines returns the values of an SSE event's data lines, in order
// (an empty one as an empty segment), when the frame has more than one
// body: an event whose data is joined from its lines with LF.
func dataLines(f *capture.Frame) []segment {
	bodies := 0
	for _, fd := range f.Fields {
		if fd.Kind == proto.FieldBody {
			bodies++
		}
	}
	if bodies < 2 {
		return nil
	}
	var segs []segment
	for i, fd := range f.Fields {
		if fd.Kind != proto.FieldHeader || fd.Name != "data" {
			continue
		}
		lo, hi := clip(f, fd.Offset+fd.Len, 0)
		if i+1 < len(f.Fields) && f.Fields[i+1].Kind == proto.FieldBody && f.Fields[i+1].Offset == fd.Offset+fd.Len {
			lo, hi = clip(f, f.Fields[i+1].Offset, f.Fields[i+1].Len)
		}
		segs = append(segs, segment{lo, hi})
	}
	return segs
}

// spanOf maps the n bytes at offset off of a frame's body (bodyOf) to
// the bytes of its Raw: the same bytes, or, for an SSE event of several
// data lines, those of the line they start in (cut at its end).
func spanOf(f *capture.Frame, off, n int) (int, int) {
	segs := dataLines(f)
	if len(segs) < 2 {
		return off, n
	}
	at := segs[0].lo // where in the joined body the line starts, as an offset of Raw
	for _, sg := range segs {
		size := sg.hi - sg.lo
		if off < at+size || sg == segs[len(segs)-1] {
			lo := sg.lo + off - at
			return lo, max(0, min(n, sg.hi-lo))
		}
		at += size + 1 // and its LF
	}
	return 0, 0
}
