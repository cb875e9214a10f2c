package mcphttp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// resendWait bounds sending a message again in the new session started
// after the server forgot one.
const resendWait = 30 * time.Second

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
	if ex.msg.Method != mcp.MethodNotifyInitialized {
		return
	}
	t.openListen(nil)
}

// expiredSession reports whether a 404 answers a POST sent in a session
// that an initialize began: the server forgot the session. Without an
// engine to start a new one it is a refusal like any other.
func (t *Transport) expiredSession(ex *exchange) bool {
	if ex.msg.Method == mcp.MethodInitialize || ex.session == "" {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.initSent && t.restart != nil
}

// restartSession has the engine start a new session after the server
// forgot the one ex was sent in, and sends ex's message once more in the
// new one, unless the engine gave the request up meanwhile (cancelled it,
// or its time ran out); a message sent in a session just started fails
// instead.
func (t *Transport) restartSession(ex *exchange) {
	if ex.resent {
		ex.fail(http.StatusNotFound, errors.New("the server forgot the new session at once (404 again)"))
		return
	}
	t.warnf("the server no longer knows session %s (404): starting a new session and sending %s again", ex.session, ex.msg.Describe())
	t.mu.Lock()
	restart := t.restart
	t.mu.Unlock()
	if err := restart(ex.ctx, ex.session); err != nil {
		ex.fail(http.StatusNotFound, fmt.Errorf("the session expired (404), and starting a new one failed: %w", err))
		return
	}
	if ex.request && !ex.waited() {
		t.reportNote(capture.Out, ex.conn, "not sent again in the new session: "+ex.msg.Describe()+" is no longer waited for")
		return
	}
	again := t.newExchange(ex.msg, ex.body)
	again.params = ex.params
	again.resent = true
	ctx, cancel := context.WithTimeout(ex.ctx, resendWait)
	defer cancel()
	if err := again.start(ctx); err != nil {
		ex.fail(0, err)
	}
}

// takeRestart keeps the engine's way to start a new session
// (client.Traits.Restarts).
func (t *Transport) takeRestart(restart func(ctx context.Context, expired string) error) {
	t.mu.Lock()
	t.restart = restart
	t.mu.Unlock()
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
