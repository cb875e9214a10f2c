package flowstream

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
)

// readChunk bounds each allocation while a body arrives, so that a length
// prefix that promises more than the peer sends costs only what was sent.
const readChunk = 64 << 10

// ReadControlFrame reads one control frame from r, checking the declared
// length against max (flow.DefaultMaxControlFrame when max ≤ 0) before
// reading the body, which is then read in bounded steps. It returns io.EOF
// alone when r ends cleanly before a frame. Otherwise, on error, frame holds
// the bytes read so far so that they can still be captured: a length over
// max is a *flow.FrameTooLargeError (frame is the prefix), and a stream that
// ends inside the frame is an error wrapping io.ErrUnexpectedEOF.
func ReadControlFrame(r io.Reader, max int) (frame, body []byte, fields []proto.Field, err error) {
	head := make([]byte, flow.ControlHeaderLen)
	n, err := io.ReadFull(r, head)
	switch {
	case err == io.EOF:
		return nil, nil, nil, io.EOF
	case errors.Is(err, io.ErrUnexpectedEOF):
		return head[:n], nil, nil, fmt.Errorf("control frame header ended after %d of %d bytes: %w", n, flow.ControlHeaderLen, err)
	case err != nil:
		return head[:n], nil, nil, fmt.Errorf("reading control frame header: %w", err)
	}
	size64, err := flow.ControlFrameSize(head, max)
	if err != nil {
		return flow.ParseControlFrame(head, max)
	}
	size := int(size64)
	frame = make([]byte, flow.ControlHeaderLen, flow.ControlHeaderLen+min(size, readChunk))
	copy(frame, head)
	for len(frame) < flow.ControlHeaderLen+size {
		step := min(flow.ControlHeaderLen+size-len(frame), readChunk)
		frame = slices.Grow(frame, step)
		got, rerr := io.ReadFull(r, frame[len(frame):len(frame)+step])
		frame = frame[:len(frame)+got]
		if rerr != nil {
			if errors.Is(rerr, io.EOF) || errors.Is(rerr, io.ErrUnexpectedEOF) {
				return flow.ParseControlFrame(frame, max)
			}
			_, _, fields, _ = flow.ParseControlFrame(frame, max)
			return frame, nil, fields, fmt.Errorf("reading control frame body: %w", rerr)
		}
	}
	return flow.ParseControlFrame(frame, max)
}
