package mcphttp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/sse"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// readStream reads the SSE answer of an exchange and, when it breaks
// before the answer, resumes it with GET and Last-Event-ID.
func (t *Transport) readStream(ex *exchange, body io.Reader) {
	err := t.readSSE(ex, ex.conn, answerStart(ex), body)
	for attempt := 1; ; attempt++ {
		if ex.ctx.Err() != nil || !ex.request || !ex.waited() {
			return // a cancelled request's stream is read only until it ends
		}
		if errors.Is(err, sse.ErrLimit) {
			ex.fail(http.StatusOK, fmt.Errorf("the answer stream of %s: %w", ex.msg.Describe(), err))
			return
		}
		lastID := ex.lastEventID()
		if lastID == "" {
			ex.fail(http.StatusOK, fmt.Errorf("the answer stream of %s ended before the answer (%s), with no event id to resume from",
				ex.msg.Describe(), streamEnd(err)))
			return
		}
		if attempt > t.cfg.ResumeAttempts {
			ex.fail(http.StatusOK, fmt.Errorf("the answer stream of %s broke %d times in a row; gave up (%s)",
				ex.msg.Describe(), attempt-1, streamEnd(err)))
			return
		}
		wait := ex.retryWait(attempt, t.cfg.RetryCap)
		t.warnf("the answer stream of %s ended before the answer (%s); resuming after event %q in %s",
			ex.msg.Describe(), streamEnd(err), lastID, wait)
		if !sleepCtx(ex.ctx, wait) {
			return
		}
		err = t.resume(ex, lastID)
	}
}

// resume opens the GET that continues ex's stream after lastID and reads it.
func (t *Transport) resume(ex *exchange, lastID string) error {
	conn := t.connName("GET")
	rsp, err := t.get(ex.ctx, conn, lastID)
	if err != nil {
		return err
	}
	defer rsp.Body.Close()
	if rsp.StatusCode != http.StatusOK || mediaType(rsp.Header) != "text/event-stream" {
		t.drain(ex, rsp)
		return fmt.Errorf("the resuming GET was answered %s", rsp.Status)
	}
	t.reportNote(capture.In, conn, fmt.Sprintf("resumes %s after event %q", ex.conn, lastID))
	return t.readSSE(ex, conn, resumeStart(ex, lastID), rsp.Body)
}

// get opens a GET stream of the session: Accept text/event-stream, the
// session's headers and, when lastID is set, Last-Event-ID. A stream in a
// Content-Encoding mcpscope did not ask for is an error.
func (t *Transport) get(ctx context.Context, conn, lastID string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(withConn(ctx, conn), http.MethodGet, t.url.String(), nil)
	if err != nil {
		return nil, err
	}
	t.setCommon(req.Header, true)
	req.Header.Set("Accept", acceptStream)
	if lastID != "" {
		req.Header.Set(headerLastID, lastID)
	}
	t.reportRequest(conn, req)
	rsp, err := t.hc.Do(req)
	if err != nil {
		return nil, t.wordFailure(req, err)
	}
	t.reportResponse(conn, rsp)
	if cause := httphead.UnaskedEncoding(rsp.Header); cause != nil && rsp.StatusCode == http.StatusOK {
		t.drainBody(conn, rsp)
		return nil, fmt.Errorf("the GET stream of %s cannot be read: %w", t.url.Redacted(), cause)
	}
	return rsp, nil
}

// readEvents reads SSE events from body until it ends: each event is a
// frame of its own and the message it carries is routed. It returns why
// the stream ended (io.EOF for a clean end).
func (t *Transport) readEvents(ex *exchange, conn string, body io.Reader) error {
	rd := newEventReader(body, t.cfg.MaxFrameSize)
	for {
		ev, err := rd.Next()
		if err != nil {
			if limit := (*sse.LimitError)(nil); errors.As(err, &limit) && ex.ctx.Err() == nil {
				// An event refused for its size: a frame of none of its
				// bytes, carrying why, for the findings.
				t.report(capture.In, conn, &capture.Frame{Chan: capture.Channel{Kind: capture.Control}, Enc: proto.EncJSON, Err: err})
			}
			if ex.ctx.Err() == nil && !errors.Is(err, io.EOF) {
				t.reportNote(capture.In, conn, "stream ended: "+err.Error())
			}
			return err
		}
		raw, data := ev.Raw, ev.DataBytes
		ex.noteEvent(ev)
		if ev.Type == "endpoint" && ex.onEndpoint != nil {
			f := &capture.Frame{Chan: capture.Channel{Kind: capture.Control}, Raw: raw, Size: int(ev.Length),
				Fields: httphead.SSEEventFields(raw), Enc: proto.EncText}
			if err := ex.onEndpoint(string(data)); err != nil {
				f.Err = err
			}
			t.sseEvent(conn, t.report(capture.In, conn, f), ev)
			continue
		}
		f := &capture.Frame{Chan: capture.Channel{Kind: capture.Control}, Raw: raw, Size: int(ev.Length),
			Fields: httphead.SSEEventFields(raw), Enc: proto.EncJSON}
		if int64(len(raw)) < ev.Length {
			f.Kept = len(raw)
		}
		msgs := t.decodeEvent(ev, data, f)
		for _, m := range msgs {
			if ex.answers(m) && ex.isAnswered() {
				f.Err = fmt.Errorf("a second answer to %s: not delivered", ex.msg.Describe())
			}
		}
		t.sseEvent(conn, t.report(capture.In, conn, f), ev)
		for _, m := range msgs {
			t.route(ex, m)
		}
	}
}

// decodeEvent decodes the message of one event into f and returns what
// to deliver. Events without data (priming, heartbeats) carry none; an
// event of a type other than message is shown and not delivered.
func (t *Transport) decodeEvent(ev sse.Event, data []byte, f *capture.Frame) []*jsonrpc.Message {
	if !carriesData(ev) {
		f.Enc = proto.EncText // a priming event or a heartbeat: no message
		return nil
	}
	if ev.Type != "" && ev.Type != "message" {
		f.Err = fmt.Errorf("an event of type %q, not message: not delivered", ev.Type)
		return nil
	}
	return decodeInto(f, data, "the event's data")
}

// carriesData says whether ev carries a message: it is dispatched with
// data other than blanks (a priming event or a heartbeat carries none).
func carriesData(ev sse.Event) bool {
	return ev.Dispatch && len(bytes.TrimSpace(ev.DataBytes)) > 0
}

// noteEvent keeps the stream's last event id and the server's retry, and
// counts the events that carry data.
func (ex *exchange) noteEvent(ev sse.Event) {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	ex.lastID = ev.ID
	if carriesData(ev) {
		ex.carried++
	}
	if ev.HasRetry {
		ex.retry, ex.hadRetry = time.Duration(min(ev.Retry, int64(time.Hour/time.Millisecond)))*time.Millisecond, true
	}
}

// lastEventID is the id to resume the stream after.
func (ex *exchange) lastEventID() string {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	return ex.lastID
}

// retryWait is the wait before the attempt-th reconnection: the server's
// retry when it set one, else a backoff doubling from firstRetry; capped.
func (ex *exchange) retryWait(attempt int, cap time.Duration) time.Duration {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	if ex.hadRetry {
		return min(ex.retry, cap)
	}
	return backoff(attempt, cap)
}

// backoff is firstRetry doubled attempt-1 times, capped.
func backoff(attempt int, cap time.Duration) time.Duration {
	d := firstRetry
	for i := 1; i < attempt && d < cap; i++ {
		d *= 2
	}
	return min(d, cap)
}

// streamEnd words why a stream ended.
func streamEnd(err error) string {
	if err == nil || errors.Is(err, io.EOF) {
		return "the server closed it"
	}
	return err.Error()
}

// sleepCtx waits d or until ctx ends; it reports whether d passed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return true
	case <-ctx.Done():
		return false
	}
}
