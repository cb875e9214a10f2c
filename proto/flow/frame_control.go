package flow

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/mcpscope/mcpscope/proto"
)

// MCP-Flow control-stream framing (seed 000 §2.1, DESIGN §3.2): a 4-byte
// big-endian unsigned length N, then N bytes of body. N is the true length
// of the body.

// ControlHeaderLen is the size of the length prefix of a control frame.
const ControlHeaderLen = 4

// DefaultMaxControlFrame is the body size limit used when a caller passes a
// maximum of zero or less.
const DefaultMaxControlFrame = 16 << 20

// FrameTooLargeError reports a frame whose declared body size is over the
// maximum. Nothing of that size was allocated.
type FrameTooLargeError struct {
	Size int64 // declared body size, bytes
	Max  int64 // the maximum in force, bytes
}

// Error says how large the frame claims to be and what the limit is.
func (e *FrameTooLargeError) Error() string {
	return fmt.Sprintf("frame of %d bytes exceeds the maximum of %d bytes", e.Size, e.Max)
}

// AppendControlFrame appends the length prefix and body of a control frame.
// A body of 4 GiB or more cannot be framed: dst is then returned unchanged
// (EncodeControlFrame reports it as an error).
func AppendControlFrame(dst, body []byte) []byte {
	if uint64(len(body)) > math.MaxUint32 {
		return dst
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(body)))
	return append(dst, body...)
}

// EncodeControlFrame returns the control frame of body, refusing a body over
// max (DefaultMaxControlFrame when max ≤ 0) with a *FrameTooLargeError.
func EncodeControlFrame(body []byte, max int) ([]byte, error) {
	limit := controlLimit(max)
	if int64(len(body)) > limit {
		return nil, &FrameTooLargeError{Size: int64(len(body)), Max: limit}
	}
	return AppendControlFrame(make([]byte, 0, ControlHeaderLen+len(body)), body), nil
}

// ParseControlFrame reads the control frame at the start of b. It returns
// the frame (prefix and body; what follows it in b is left alone), the body
// and the annotations. A declared length over max (DefaultMaxControlFrame
// when max ≤ 0) is a *FrameTooLargeError; a b shorter than the frame is an
// error wrapping io.ErrUnexpectedEOF, returned with what b holds of it.
func ParseControlFrame(b []byte, max int) (frame, body []byte, fields []proto.Field, err error) {
	if len(b) < ControlHeaderLen {
		return b, nil, nil, fmt.Errorf("control frame header needs %d bytes, got %d: %w", ControlHeaderLen, len(b), io.ErrUnexpectedEOF)
	}
	size, err := controlSize(b, max)
	if err != nil {
		return b[:ControlHeaderLen], nil, controlFields(size, 0), err
	}
	if got := len(b) - ControlHeaderLen; int64(got) < size {
		return b, nil, controlFields(size, got), truncatedBody(size, got)
	}
	frame = b[:ControlHeaderLen+int(size)]
	return frame, frame[ControlHeaderLen:], controlFields(size, int(size)), nil
}

// ControlFrameSize decodes the length prefix at the start of head (at least
// ControlHeaderLen bytes) and checks it against max (DefaultMaxControlFrame
// when max ≤ 0): a declared length over it is a *FrameTooLargeError.
func ControlFrameSize(head []byte, max int) (int64, error) {
	if len(head) < ControlHeaderLen {
		return 0, fmt.Errorf("control frame header needs %d bytes, got %d: %w", ControlHeaderLen, len(head), io.ErrUnexpectedEOF)
	}
	return controlSize(head, max)
}

// controlLimit is the body limit for a caller's max.
func controlLimit(max int) int64 {
	if max <= 0 {
		return DefaultMaxControlFrame
	}
	return min(int64(max), math.MaxUint32)
}

// controlSize reads the length prefix at the start of b and checks it.
func controlSize(b []byte, max int) (int64, error) {
	size := int64(binary.BigEndian.Uint32(b))
	if limit := controlLimit(max); size > limit {
		return size, &FrameTooLargeError{Size: size, Max: limit}
	}
	return size, nil
}

// truncatedBody is the error of a frame whose body stopped short.
func truncatedBody(size int64, got int) error {
	return fmt.Errorf("control frame body ended after %d of %d bytes: %w", got, size, io.ErrUnexpectedEOF)
}

// controlFields annotates a control frame whose prefix declares size bytes
// and of whose body got bytes are present.
func controlFields(size int64, got int) []proto.Field {
	fields := []proto.Field{proto.UintField(0, ControlHeaderLen, "length", uint64(size))}
	if got == 0 {
		return fields
	}
	value := proto.ByteCount(got)
	if int64(got) < size {
		value = fmt.Sprintf("%d of %d bytes (truncated)", got, size)
	}
	return append(fields, proto.Field{Offset: ControlHeaderLen, Len: got, Name: "body", Value: value, Kind: proto.FieldBody})
}
