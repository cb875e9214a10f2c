package httprelay

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proxy"
)

// envelope is what the bridge reads of a message: enough to carry the
// session's headers.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result struct {
		ProtocolVersion string `json:"protocolVersion"`
	} `json:"result"`
}

// post sends body to the server and returns once its answer's head came
// (so that the server sees the host's messages in the host's order); the
// answer is read on and carried to host. A request that gets no JSON-RPC
// answer (the server unreachable, an error status) is answered to the
// host with an error that says why.
func (b *Bridge) post(ctx context.Context, body []byte, host toHost) error {
	var env envelope
	_ = json.Unmarshal(body, &env)
	if env.Method == "initialize" {
		b.mu.Lock()
		b.initID = string(env.ID)
		b.mu.Unlock()
	}
	target := b.opt.URL
	if b.legacy != nil {
		u, err := b.legacy.endpoint(ctx)
		if err != nil {
			return b.failed(ctx, env, "", err.Error(), host)
		}
		target = u
	}
	conn := "http POST"
	if c, ok := host.(*lineHost); ok {
		conn = c.conn
	}
	req, err := http.NewRequestWithContext(b.ctx, http.MethodPost, target.String(), bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	b.sessionHeaders(req.Header)
	b.tap.request(conn, req)
	rsp, err := b.opt.Client.Do(req)
	if err != nil {
		why := fmt.Sprintf("the server at %s cannot be reached: %v", b.opt.URL.Redacted(), err)
		b.tap.note(capture.In, conn, why, err)
		return b.failed(ctx, env, conn, why, host)
	}
	b.tap.response(conn, rsp)
	b.takeSession(rsp)
	jsonRPC := isStream(rsp) || mediaType(rsp.Header) == "application/json"
	if rsp.StatusCode >= 300 && !jsonRPC {
		a := &answer{sess: b.sess, tap: b.tap, conn: conn, rsp: rsp, host: host, lines: true}
		_ = a.other(ctx)
		rsp.Body.Close()
		return b.failed(ctx, env, conn, "the server answered "+rsp.Status, host)
	}
	if env.Method == "notifications/initialized" && rsp.StatusCode < 300 && !b.opt.Legacy {
		b.listen()
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		defer rsp.Body.Close()
		a := &answer{sess: b.sess, tap: b.tap, conn: conn, rsp: rsp, host: host, lines: true}
		if isStream(rsp) {
			capture.Note(b.sess.Tap(), capture.SSEOpened{Conn: conn, Start: capture.SSEStart{Kind: capture.SSEAnswer, Method: env.Method, ReqID: string(env.ID)}})
		}
		err := a.relay(ctx)
		if isStream(rsp) {
			state, why := capture.SSEDone, ""
			if err != nil {
				state, why = capture.SSEBroken, err.Error()
			}
			capture.Note(b.sess.Tap(), capture.SSEEnded{Conn: conn, State: state, Why: why})
		}
	}()
	return nil
}

// failed answers the host's request env, which got no answer from the
// server, with a JSON-RPC error saying why (a notification or a
// response gets none: nothing waits for it).
func (b *Bridge) failed(ctx context.Context, env envelope, conn, why string, host toHost) error {
	if env.Method == "" || len(env.ID) == 0 || string(env.ID) == "null" {
		return nil
	}
	msg, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": env.ID,
		"error": map[string]any{"code": -32603, "message": "mcpscope proxy: " + why},
	})
	b.tap.mark(capture.In, conn, proxy.Mark{What: proxy.WhatInjected, Method: env.Method, Note: "the proxy answers the host: " + why})
	a := &answer{sess: b.sess, tap: b.tap, conn: conn, host: host, lines: true}
	return b.sess.Relay(ctx, a.hop(msg, msg, nil), host)
}

// sessionHeaders sets the headers every request of the session carries:
// --header values, the session id, the protocol version.
func (b *Bridge) sessionHeaders(h http.Header) {
	for k, vs := range b.opt.Header {
		h[k] = append([]string(nil), vs...)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.session != "" {
		h.Set("Mcp-Session-Id", b.session)
	}
	if b.version != "" {
		h.Set("Mcp-Protocol-Version", b.version)
	}
}

// takeSession keeps the session id the server gives.
func (b *Bridge) takeSession(rsp *http.Response) {
	if v := rsp.Header.Get("Mcp-Session-Id"); v != "" {
		b.mu.Lock()
		b.session = v
		b.mu.Unlock()
	}
}

// learnVersion keeps the protocol version of the answer to the host's
// initialize.
func (b *Bridge) learnVersion(body []byte) {
	b.mu.Lock()
	waiting := b.initID
	b.mu.Unlock()
	if waiting == "" {
		return
	}
	var env envelope
	if json.Unmarshal(body, &env) != nil || string(env.ID) != waiting || env.Result.ProtocolVersion == "" {
		return
	}
	b.mu.Lock()
	b.version, b.initID = env.Result.ProtocolVersion, ""
	b.mu.Unlock()
}

// deleteSession ends the session on the server.
func (b *Bridge) deleteSession(ctx context.Context) {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, b.opt.URL.String(), nil)
	if err != nil {
		return
	}
	b.sessionHeaders(req.Header)
	conn := "http DELETE"
	b.tap.request(conn, req)
	rsp, err := b.opt.Client.Do(req)
	if err != nil {
		b.tap.note(capture.In, conn, "the DELETE that ends the session failed: "+err.Error(), err)
		return
	}
	b.tap.response(conn, rsp)
	rsp.Body.Close()
}

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
