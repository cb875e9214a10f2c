package mcphttp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// reinitWait bounds starting a new session after the server forgot one.
const reinitWait = 30 * time.Second

// takeSession keeps the session id an initialize answer carries.
func (t *Transport) takeSession(rsp *http.Response) {
	id := rsp.Header.Get(headerSession)
	t.mu.Lock()
	t.session = id
	t.mu.Unlock()
}

// answered notes that a POST got a 2xx: the server speaks Streamable
// HTTP, so no later refusal falls back to the legacy transport.
func (t *Transport) answered() {
	t.mu.Lock()
	t.probed = true
	t.mu.Unlock()
}

// notificationAccepted opens the standalone GET stream once the server
// accepted notifications/initialized.
func (t *Transport) notificationAccepted(ex *exchange) {
	if ex.msg.Method != proto.MethodNotifyInitialized {
		return
	}
	t.openListen(nil)
}

// expiredSession reports whether a 404 answers a POST sent in a session:
// the server forgot the session.
func (t *Transport) expiredSession(ex *exchange) bool {
	if ex.msg.Method == proto.MethodInitialize || ex.session == "" {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.initBody != nil
}

// reinitCall is a re-initialization in flight, shared by every request
// that met the expired session.
type reinitCall struct {
	done chan struct{}
	err  error
}

// restartSession initializes a new session after the server forgot the
// one ex was sent in, and sends ex's message once more in the new one.
func (t *Transport) restartSession(ex *exchange) {
	if ex.resent {
		ex.fail(http.StatusNotFound, errors.New("the server forgot the new session at once (404 again)"))
		return
	}
	t.warnf("the server no longer knows session %s (404): starting a new session and sending %s again", ex.session, ex.msg.Describe())
	if err := t.reinitialize(ex.ctx, ex.session); err != nil {
		ex.fail(http.StatusNotFound, fmt.Errorf("the session expired (404), and starting a new one failed: %w", err))
		return
	}
	again := t.newExchange(ex.msg, ex.body)
	again.params = ex.params
	again.resent = true
	ctx, cancel := context.WithTimeout(ex.ctx, reinitWait)
	defer cancel()
	if err := again.start(ctx); err != nil {
		ex.fail(0, err)
	}
}

// reinitialize runs initialize and notifications/initialized again, once
// for every request that met the expired session old: a request that
// meets it while the new session starts waits for that one, and a request
// that meets it after the new session started is sent again at once. The
// new session is started on a goroutine of its own, bounded by
// reinitWait, so that it outlives any one request; ctx bounds the wait.
func (t *Transport) reinitialize(ctx context.Context, old string) error {
	t.mu.Lock()
	c := t.reinit
	if c == nil && t.session != old {
		t.mu.Unlock()
		return nil // another request started the new session already
	}
	if c == nil {
		c = &reinitCall{done: make(chan struct{})}
		t.reinit = c
		body := t.initBody
		t.mu.Unlock()
		if !t.spawn(func() { t.runReinit(c, body) }) {
			t.settleReinit(c, t.life.Gone())
		}
	} else {
		t.mu.Unlock()
	}
	select {
	case <-c.done:
		return c.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// runReinit starts the new session and tells those waiting for it.
func (t *Transport) runReinit(c *reinitCall, body []byte) {
	ctx, cancel := context.WithTimeout(t.ctx, reinitWait)
	defer cancel()
	t.settleReinit(c, t.initializeAgain(ctx, body))
}

// settleReinit ends the re-initialization c with err.
func (t *Transport) settleReinit(c *reinitCall, err error) {
	t.mu.Lock()
	t.reinit = nil
	t.mu.Unlock()
	c.err = err
	close(c.done)
}

// initializeAgain sends the initialize request the engine sent first,
// under an id of the transport's own ("mcpscope-initialize-N"), takes its
// answer without delivering it, opens the new session's standalone GET
// stream in place of the old one's, and says initialized, waiting for the
// server to take that before the requests are sent again.
func (t *Transport) initializeAgain(ctx context.Context, body []byte) error {
	msgs, _, err := proto.DecodeJSON(body)
	if err != nil || len(msgs) != 1 {
		return fmt.Errorf("the first initialize request cannot be sent again: %v", err)
	}
	t.mu.Lock()
	t.reinits++
	n := t.reinits
	t.mu.Unlock()
	// The forgotten session's GET stream ends before the new session has
	// an id, so that it never asks again under the new one.
	t.stopListening()
	init := msgs[0]
	id := proto.StringID(fmt.Sprintf("mcpscope-initialize-%d", n))
	init.ID = &id
	if body, err = init.EncodeJSON(); err != nil {
		return fmt.Errorf("encoding initialize again: %w", err)
	}
	m, err := t.ownCall(ctx, init, body)
	switch {
	case err != nil:
		return err
	case m.Violation != nil:
		return fmt.Errorf("initialize failed: %w", m.Violation)
	case m.Error != nil:
		return fmt.Errorf("initialize was refused: %d %s", m.Error.Code, m.Error.Message)
	}
	t.listenEarly(ctx)
	note, _ := proto.NewNotification(proto.MethodNotifyInitialized, nil)
	nb, _ := note.EncodeJSON()
	said := t.newExchange(note, nb)
	said.resent = true // a 404 to it is the new session forgotten at once
	return said.startAccepted(ctx)
}

// deleteSession ends the session with DELETE at Close, bounded by
// deadline; a 405 says the server does not let clients end sessions.
func (t *Transport) deleteSession(deadline time.Time) {
	t.mu.Lock()
	session, legacy := t.session, t.legacy
	t.session = "" // ended: a second Close deletes nothing
	t.mu.Unlock()
	if session == "" || legacy != nil || t.hc == nil {
		return
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	conn := t.connName("DELETE")
	req, err := http.NewRequestWithContext(withConn(ctx, conn), http.MethodDelete, t.url.String(), nil)
	if err != nil {
		return
	}
	t.setCommon(req.Header, true)
	req.Header.Set(headerSession, session)
	t.reportRequest(conn, req)
	rsp, err := t.hc.Do(req)
	if err != nil {
		t.reportNote(capture.In, conn, "DELETE failed: "+t.wordFailure(req, err).Error())
		return
	}
	defer rsp.Body.Close()
	t.reportResponse(conn, rsp)
}
