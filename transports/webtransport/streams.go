package webtransport

import (
	"errors"
	"fmt"
	"io"
	"time"

	wt "github.com/quic-go/webtransport-go"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/transports/flowstream"
)

// acceptStreams takes the server's execution streams until the session
// ends and reads each on its own goroutine.
func (t *Transport) acceptStreams(sess *wt.Session) {
	defer t.loops.Done()
	for {
		str, err := sess.AcceptUniStream(sess.Context())
		if err != nil {
			return
		}
		t.loops.Add(1)
		go func() {
			defer t.loops.Done()
			t.readStream(str)
		}()
	}
}

// readStream reads the header of one execution stream, checks it against
// the requests in flight and pumps its payload.
func (t *Transport) readStream(str *wt.ReceiveStream) {
	_ = str.SetReadDeadline(time.Now().Add(t.cfg.StreamHeaderTimeout))
	h, raw, fields, err := flowstream.ReadExecStreamHeader(str)
	_ = str.SetReadDeadline(time.Time{})
	if err != nil {
		str.CancelRead(StreamCodeAborted)
		t.report(capture.In, &capture.Frame{
			Chan: capture.Channel{Kind: capture.Stream}, Raw: raw, Size: len(raw),
			Enc: proto.EncBinary, Err: fmt.Errorf("an execution stream ended before its header was whole: %w", err),
		})
		return
	}
	key := t.streamKey(h.RequestID, h.StreamTag)
	head := &capture.Frame{
		Chan: capture.Channel{Kind: capture.Stream, ReqID: h.RequestID, Tag: h.StreamTag},
		Raw:  raw, Size: len(raw), Fields: fields, Enc: proto.EncBinary,
	}
	if reason := t.table.open(h.RequestID, h.StreamTag); reason != "" {
		str.CancelRead(StreamCodeInjection)
		head.Err = &StreamInjectionError{Header: h, Reason: reason}
		t.report(capture.In, head)
		t.mark(key, capture.StreamReset, head.Err)
		return
	}
	t.report(capture.In, head)
	t.mark(key, capture.StreamOpen, nil)
	t.table.stoppable(h.RequestID, h.StreamTag, func() { str.CancelRead(StreamCodeAborted) })
	n, cause := t.pump(str, key)
	if cause != nil && isServerReset(cause) {
		t.awaitReport(h)
	}
	// The capture learns of the end before anyone awaiting the stream; a
	// $/streamError that slips in between is marked again.
	preview := t.table.outcome(h.RequestID, h.StreamTag, n, cause)
	t.markEnd(key, cause, preview)
	if final := t.table.ended(h.RequestID, h.StreamTag, n, cause); hasReport(final) != hasReport(preview) {
		t.markEnd(key, cause, final)
	}
}

// markEnd marks how a stream ended: done, reset by the server without a
// reason, or error.
func (t *Transport) markEnd(key capture.StreamKey, cause, failure error) {
	switch {
	case failure == nil:
		t.mark(key, capture.StreamDone, nil)
	case isServerReset(cause) && !hasReport(failure):
		t.mark(key, capture.StreamReset, failure)
	default:
		t.mark(key, capture.StreamError, failure)
	}
}

// pump copies the payload of a stream to its sink and to the capture, one
// frame per read, until FIN or a failure. It returns the payload bytes read
// and nil on a clean FIN.
func (t *Transport) pump(str *wt.ReceiveStream, key capture.StreamKey) (int64, error) {
	out, err := t.streamSink(key)
	if err != nil {
		str.CancelRead(StreamCodeAborted)
		return 0, err
	}
	buf := make([]byte, t.cfg.ChunkSize)
	copies := chunkCopier{reuse: capture.ReleasesUnheld(t.cfg.Sink)}
	var total int64
	var werr error
	for {
		n, rerr := str.Read(buf)
		if n > 0 {
			f := copies.frame(key, buf[:n])
			copies.reported(f, t.report(capture.In, f))
			total += int64(n)
			t.table.progressed(key.ReqID, key.Tag, n)
			if _, werr = out.Write(buf[:n]); werr != nil {
				str.CancelRead(StreamCodeAborted)
				werr = fmt.Errorf("storing the payload: %w", werr)
			}
		}
		if werr != nil {
			_ = out.Close()
			return total, werr
		}
		switch {
		case errors.Is(rerr, io.EOF):
			if cerr := out.Close(); cerr != nil {
				return total, fmt.Errorf("storing the payload: %w", cerr)
			}
			return total, nil
		case rerr != nil:
			_ = out.Close()
			return total, describeStreamErr(rerr)
		}
	}
}

// payloadFrame is a stream chunk's Frame with its one annotation, so that
// both cost a single allocation.
type payloadFrame struct {
	capture.Frame
	fields [1]proto.Field
}

// chunkFrame returns the frame of one payload chunk, holding its own copy
// of the bytes (the read buffer is reused), made in into's array when it
// is large enough (nil: a fresh one).
func chunkFrame(key capture.StreamKey, b, into []byte) *capture.Frame {
	f := &payloadFrame{}
	f.fields[0] = proto.Field{Len: len(b), Name: "payload", Kind: proto.FieldBody}
	f.Frame = capture.Frame{
		Chan: capture.Channel{Kind: capture.Stream, ReqID: key.ReqID, Tag: key.Tag},
		Raw:  append(into[:0], b...), Size: len(b), Enc: proto.EncBinary, Fields: f.fields[:],
	}
	return &f.Frame
}

// streamSink opens where the payload of a stream goes.
func (t *Transport) streamSink(key capture.StreamKey) (io.WriteCloser, error) {
	if t.cfg.StreamSink == nil {
		return discardCloser{}, nil
	}
	w, err := t.cfg.StreamSink(key)
	if err != nil {
		return nil, fmt.Errorf("opening where to store the payload: %w", err)
	}
	if w == nil {
		return discardCloser{}, nil
	}
	return w, nil
}

// discardCloser drops a payload.
type discardCloser struct{}

func (discardCloser) Write(p []byte) (int, error) { return len(p), nil }
func (discardCloser) Close() error                { return nil }

// serverReset says the server reset (CancelWrite) a stream.
type serverReset struct{ code wt.StreamErrorCode }

func (e *serverReset) Error() string {
	return fmt.Sprintf("the server reset the stream (code %d)", e.code)
}

// describeStreamErr rewords the error that ended a stream read.
func describeStreamErr(err error) error {
	var se *wt.StreamError
	if errors.As(err, &se) && se.Remote {
		return &serverReset{code: se.ErrorCode}
	}
	var sess *wt.SessionError
	if errors.As(err, &sess) {
		return fmt.Errorf("the session ended while the stream was open: %w", sessionCause(err))
	}
	return fmt.Errorf("reading the stream: %w", err)
}

// isServerReset reports whether err says the server reset the stream.
func isServerReset(err error) bool {
	var r *serverReset
	return errors.As(err, &r)
}

// hasReport reports whether a stream failure carries the server's reason.
func hasReport(err error) bool {
	var f *StreamFailedError
	return errors.As(err, &f) && f.Reported != ""
}

// awaitReport gives the server StreamErrorGrace to explain a reset with
// $/streamError, which travels on the control stream and may come later.
func (t *Transport) awaitReport(h flow.ExecStreamHeader) {
	reported := t.table.reportedBy(h.RequestID, h.StreamTag)
	if reported == nil {
		return
	}
	timer := time.NewTimer(t.cfg.StreamErrorGrace)
	defer timer.Stop()
	select {
	case <-reported:
	case <-timer.C:
	}
}
