package flow

import (
	"sync"

	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/quic-go/webtransport-go"
)

// execStream is an execution stream: header, payload, FIN.
type execStream struct {
	s          *session
	str        *webtransport.SendStream
	hdr        flow.ExecStreamHeader
	headerSent bool
	stopCancel func() bool
	once       sync.Once
}

// Tag returns the stream tag.
func (x *execStream) Tag() uint32 { return x.hdr.StreamTag }

// WriteHeader sends the 8-byte header unless it went out already.
func (x *execStream) WriteHeader() error {
	if x.headerSent {
		return nil
	}
	x.headerSent = true
	_, err := x.str.Write(x.hdr.Append(make([]byte, 0, flow.ExecStreamHeaderLen)))
	return err
}

// Write sends payload bytes, after the header.
func (x *execStream) Write(p []byte) (int, error) {
	if err := x.WriteHeader(); err != nil {
		return 0, err
	}
	return x.str.Write(p)
}

// Close sends FIN and frees the slot.
func (x *execStream) Close() error {
	err := x.WriteHeader()
	x.release()
	if err != nil {
		return err
	}
	return x.str.Close()
}

// Abort resets the stream and sends $/streamError.
func (x *execStream) Abort(reason string) {
	x.str.CancelWrite(StreamCodeAborted)
	x.release()
	_ = x.s.notify(flow.MethodFlowStreamError, flow.FlowStreamErrorParams{RequestID: x.hdr.RequestID, StreamTag: x.hdr.StreamTag, Error: reason})
}

// release frees the slot once.
func (x *execStream) release() {
	x.once.Do(func() {
		x.stopCancel()
		x.s.releaseStream()
	})
}
