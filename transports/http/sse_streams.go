package mcphttp

import (
	"errors"
	"io"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/sse"
)

// The SSE streams of a session are noted to the sink when it takes notes
// (capture.Tap): each SSE body is opened with its kind and request,
// counts its events, and ends done, broken or cancelled. Every body read
// as SSE goes through followSSE, so no stream is left open in the record.

// readSSE reads the SSE body of ex on conn as one followed stream.
func (t *Transport) readSSE(ex *exchange, conn string, start capture.SSEStart, body io.Reader) error {
	return t.followSSE(ex, conn, start, func() error { return t.readEvents(ex, conn, body) })
}

// followSSE runs read, which reads an SSE body of ex on conn, between the
// stream's start and its end, and returns what read returned.
func (t *Transport) followSSE(ex *exchange, conn string, start capture.SSEStart, read func() error) error {
	if _, ok := t.cfg.Sink.(capture.Tap); !ok {
		return read()
	}
	capture.Note(t.cfg.Sink, capture.SSEOpened{Conn: conn, Start: start})
	err := read()
	state, why := sseOutcome(ex, start.Kind, err)
	capture.Note(t.cfg.Sink, capture.SSEEnded{Conn: conn, State: state, Why: why})
	return err
}

// sseEvent counts one event of the stream on conn, held as frame seq.
func (t *Transport) sseEvent(conn string, seq uint64, ev sse.Event) {
	capture.Note(t.cfg.Sink, capture.SSEEventSeen{Conn: conn, Seq: seq, Size: ev.Length, LastID: ev.ID})
}

// answerStart is the start of the SSE answer of ex's POST.
func answerStart(ex *exchange) capture.SSEStart {
	s := capture.SSEStart{Kind: capture.SSEAnswer}
	if ex.msg != nil && ex.msg.Method != "" {
		s.Method = ex.msg.Method
	}
	if ex.request && ex.msg.ID != nil {
		s.ReqID = ex.msg.ID.String()
	}
	return s
}

// resumeStart is the start of the GET that resumes ex's answer stream
// after event lastID.
func resumeStart(ex *exchange, lastID string) capture.SSEStart {
	s := answerStart(ex)
	s.Kind, s.Of, s.After = capture.SSEResume, ex.conn, lastID
	return s
}

// sseOutcome says how a stream of ex of the given kind ended, read having
// returned err: done once the request it answers is answered, or on a
// clean end of a stream that answers nothing; cancelled when mcpscope
// closed it; broken otherwise, with why.
func sseOutcome(ex *exchange, kind capture.SSEKind, err error) (capture.SSEState, string) {
	ex.mu.Lock()
	answered, cancelled := ex.answered, ex.cancelled
	ex.mu.Unlock()
	clean := err == nil || errors.Is(err, io.EOF)
	switch {
	case ex.request && answered:
		return capture.SSEDone, ""
	case cancelled:
		return capture.SSECancelled, "to cancel " + ex.msg.Describe()
	case ex.t.ctx.Err() != nil:
		return capture.SSECancelled, "the session closed"
	case ex.ctx.Err() != nil:
		return capture.SSECancelled, "closed by mcpscope"
	case clean && ex.request:
		return capture.SSEBroken, "the server closed it before the answer"
	case clean && kind == capture.SSELegacy:
		return capture.SSEBroken, "the server closed it; the legacy transport cannot resume"
	case clean:
		return capture.SSEDone, ""
	}
	return capture.SSEBroken, err.Error()
}
