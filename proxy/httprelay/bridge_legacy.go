package httprelay

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"sync"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/httphead"
)

// legacyStream is the one stream of the legacy HTTP+SSE transport: its
// endpoint event says where to post, and every message of the server
// comes on it.
type legacyStream struct {
	ready chan struct{} // closed once the endpoint is known or the stream failed
	done  chan struct{} // closed when the stream ended

	mu    sync.Mutex
	at    *url.URL
	cause error
}

// endpoint waits for the endpoint event and returns where to post.
func (l *legacyStream) endpoint(ctx context.Context) (*url.URL, error) {
	select {
	case <-l.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.at == nil {
		return nil, fmt.Errorf("the server's stream gave no endpoint: %w", l.cause)
	}
	return l.at, nil
}

// err says why the stream ended.
func (l *legacyStream) err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cause == nil {
		return errors.New("the server closed its stream; the legacy transport cannot resume it")
	}
	return l.cause
}

// openLegacy GETs the stream and reads it on its own goroutine.
func (b *Bridge) openLegacy(ctx context.Context) *legacyStream {
	l := &legacyStream{ready: make(chan struct{}), done: make(chan struct{})}
	var once sync.Once
	settle := func(u *url.URL, err error) {
		once.Do(func() {
			l.mu.Lock()
			l.at, l.cause = u, err
			l.mu.Unlock()
			close(l.ready)
		})
	}
	go func() {
		defer close(l.done)
		err := b.readLegacy(ctx, settle)
		if err == nil {
			err = errors.New("the server closed its stream; the legacy transport cannot resume it")
		}
		settle(nil, err)
		l.mu.Lock()
		l.cause = err
		l.mu.Unlock()
	}()
	return l
}

// readLegacy reads the legacy stream until it ends.
func (b *Bridge) readLegacy(ctx context.Context, settle func(*url.URL, error)) error {
	conn := "http GET " + strconv.FormatUint(b.seq.Add(1), 10)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.opt.URL.String(), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	b.sessionHeaders(req.Header)
	b.tap.request(conn, req)
	rsp, err := b.opt.Client.Do(req)
	if err != nil {
		err = unreachable(b.opt.URL, err)
		b.tap.note(capture.In, conn, err.Error(), err)
		return err
	}
	defer rsp.Body.Close()
	b.tap.response(conn, rsp)
	if rsp.StatusCode != http.StatusOK || !isStream(rsp) {
		return fmt.Errorf("the server answered the stream's GET with %s, not an event stream", rsp.Status)
	}
	a := &answer{sess: b.sess, tap: b.tap, conn: conn, rsp: rsp, host: &lineHost{b: b, conn: conn}, lines: true,
		endpoint: func(_ []byte, data string) []byte {
			u, err := httphead.LegacyEndpoint(b.opt.URL, data)
			if err != nil {
				b.tap.note(capture.In, conn, err.Error(), err)
			}
			settle(u, err)
			return nil
		}}
	capture.Note(b.sess.Tap(), capture.SSEOpened{Conn: conn, Start: capture.SSEStart{Kind: capture.SSELegacy}})
	err = a.relay(ctx)
	state, why := capture.SSEBroken, "the server closed it"
	if err != nil {
		why = err.Error()
	}
	if ctx.Err() != nil {
		state, why = capture.SSECancelled, "the host closed the session"
	}
	capture.Note(b.sess.Tap(), capture.SSEEnded{Conn: conn, State: state, Why: why})
	return err
}
