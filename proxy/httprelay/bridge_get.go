package httprelay

import (
	"fmt"
	"net/http"
	"time"

	"github.com/mcpscope/mcpscope/capture"
)

// maxResumes bounds the reconnections in a row of the GET stream that
// bring no event.
const maxResumes = 5

// listen opens the session's GET stream once, on its own goroutine,
// reconnecting with Last-Event-ID when it breaks.
func (b *Bridge) listen() {
	b.mu.Lock()
	if b.listening {
		b.mu.Unlock()
		return
	}
	b.listening = true
	b.mu.Unlock()
	go func() {
		lastID, misses := "", 0
		for misses < maxResumes {
			got, retry, ok := b.getStream(&lastID)
			if !ok {
				return
			}
			if got {
				misses = 0
			} else {
				misses++
			}
			select {
			case <-b.ctx.Done():
				return
			case <-time.After(retry):
			}
		}
	}()
}

// getStream reads the GET stream once. got says events came; ok false
// says not to try again (the server offers no stream, or the session
// ended).
func (b *Bridge) getStream(lastID *string) (got bool, retry time.Duration, ok bool) {
	ctx := b.ctx
	conn := fmt.Sprintf("http GET %d", b.seq.Add(1))
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.opt.URL.String(), nil)
	if err != nil {
		return false, 0, false
	}
	req.Header.Set("Accept", "text/event-stream")
	b.sessionHeaders(req.Header)
	if *lastID != "" {
		req.Header.Set("Last-Event-ID", *lastID)
	}
	b.tap.request(conn, req)
	rsp, err := b.opt.Client.Do(req)
	if err != nil {
		err = withoutURL(err)
		b.tap.note(capture.In, conn, "the GET stream failed: "+err.Error(), err)
		return false, time.Second, ctx.Err() == nil
	}
	defer rsp.Body.Close()
	b.tap.response(conn, rsp)
	if rsp.StatusCode != http.StatusOK || !isStream(rsp) {
		return false, 0, false // 405: the server offers no GET stream
	}
	retry = time.Second
	a := &answer{sess: b.sess, tap: b.tap, conn: conn, rsp: rsp, host: &lineHost{b: b, conn: conn}, lines: true,
		lastID: func(id string) { got = true; *lastID = id }}
	start := capture.SSEStart{Kind: capture.SSEGet, After: *lastID}
	capture.Note(b.sess.Tap(), capture.SSEOpened{Conn: conn, Start: start})
	err = a.relay(ctx)
	state, why := capture.SSEDone, ""
	if err != nil {
		state, why = capture.SSEBroken, err.Error()
	}
	capture.Note(b.sess.Tap(), capture.SSEEnded{Conn: conn, State: state, Why: why})
	return got, retry, ctx.Err() == nil
}
