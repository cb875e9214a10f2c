package httprelay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
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

// post sends body to the server and returns once the server has it (the
// request's body went out), so that the server sees the host's messages
// in the host's order and a long answer holds up no later message; the
// answer is read on and carried to host. An initialize and the
// notifications/initialized after it wait for the answer's head: what
// follows them needs the session id and the GET stream. A request that
// gets no JSON-RPC answer (the server unreachable, an error status) is
// answered to the host with an error that says why.
func (b *Bridge) post(ctx context.Context, body []byte, host toHost) error {
	var env envelope
	_ = json.Unmarshal(body, &env)
	if env.Method == "initialize" {
		b.mu.Lock()
		b.initID = string(env.ID)
		b.mu.Unlock()
	}
	conn := "http POST"
	if c, ok := host.(*lineHost); ok {
		conn = c.conn
	}
	target := b.opt.URL
	if b.legacy != nil {
		u, err := b.legacy.endpoint(ctx)
		if err != nil {
			return b.failed(env, conn, err.Error(), host)
		}
		target = u
	}
	sent := &sentBody{r: bytes.NewReader(body), n: len(body), sent: make(chan struct{})}
	req, err := http.NewRequestWithContext(b.ctx, http.MethodPost, target.String(), sent)
	if err != nil {
		return err
	}
	req.ContentLength = int64(len(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	b.sessionHeaders(req.Header)
	b.mu.Lock()
	if b.closing {
		b.mu.Unlock()
		return errors.New("the bridge is closing")
	}
	b.wg.Add(1)
	b.mu.Unlock()
	headed := make(chan struct{})
	go func() {
		defer b.wg.Done()
		b.exchange(req, env, conn, host, headed)
	}()
	wait := sent.sent
	if env.Method == "initialize" || env.Method == "notifications/initialized" {
		wait = headed
	}
	select {
	case <-wait:
	case <-headed:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// sentBody is a request body that says when it was read whole.
type sentBody struct {
	r    *bytes.Reader
	n    int
	read int
	once sync.Once
	sent chan struct{}
}

func (s *sentBody) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.read += n
	if s.read >= s.n || err != nil {
		s.once.Do(func() { close(s.sent) })
	}
	return n, err
}

// exchange does the POST req of the host's message env and carries its
// answer to host; headed is closed once the answer's head came, or the
// POST failed.
func (b *Bridge) exchange(req *http.Request, env envelope, conn string, host toHost, headed chan struct{}) {
	var once sync.Once
	head := func() { once.Do(func() { close(headed) }) }
	defer head()
	ctx := b.ctx
	b.tap.request(conn, req)
	rsp, err := b.opt.Client.Do(req)
	if err != nil {
		err = unreachable(b.opt.URL, err)
		b.tap.note(capture.In, conn, err.Error(), err)
		_ = b.failed(env, conn, err.Error(), host)
		return
	}
	defer rsp.Body.Close()
	b.tap.response(conn, rsp)
	b.takeSession(rsp)
	a := &answer{sess: b.sess, tap: b.tap, conn: conn, rsp: rsp, host: host, lines: true}
	jsonRPC := isStream(rsp) || mediaType(rsp.Header) == "application/json"
	if rsp.StatusCode >= 300 && !jsonRPC {
		_ = a.other(ctx)
		_ = b.failed(env, conn, "the server answered "+rsp.Status, host)
		return
	}
	if env.Method == "notifications/initialized" && rsp.StatusCode < 300 && !b.opt.Legacy {
		b.listen()
	}
	head()
	if !isStream(rsp) {
		_ = a.relay(ctx)
		return
	}
	capture.Note(b.sess.Tap(), capture.SSEOpened{Conn: conn, Start: capture.SSEStart{Kind: capture.SSEAnswer, Method: env.Method, ReqID: string(env.ID)}})
	err = a.relay(ctx)
	state, why := capture.SSEDone, ""
	if err != nil {
		state, why = capture.SSEBroken, err.Error()
	}
	capture.Note(b.sess.Tap(), capture.SSEEnded{Conn: conn, State: state, Why: why})
}

// failed answers the host's request env, which got no answer from the
// server, with a JSON-RPC error saying why (a notification or a
// response gets none: nothing waits for it).
func (b *Bridge) failed(env envelope, conn, why string, host toHost) error {
	if env.Method == "" || len(env.ID) == 0 || string(env.ID) == "null" {
		return nil
	}
	msg, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": env.ID,
		"error": map[string]any{"code": -32603, "message": "mcpscope proxy: " + why},
	})
	b.tap.mark(capture.In, conn, proxy.Mark{What: proxy.WhatInjected, Method: env.Method, Note: "the proxy answers the host: " + why})
	a := &answer{sess: b.sess, tap: b.tap, conn: conn, host: host, lines: true}
	return b.sess.Relay(b.ctx, a.hop(msg, msg, nil), host)
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
		err = withoutURL(err)
		b.tap.note(capture.In, conn, "the DELETE that ends the session failed: "+err.Error(), err)
		return
	}
	b.tap.response(conn, rsp)
	rsp.Body.Close()
}

// refuseLong answers a host's line past maxBody, head being its first
// bytes, with a JSON-RPC error when the head names its id and method (a
// notification or a response gets none), and captures the head. The
// bridge does not post it: a message that long is no MCP message a
// server is likely to take, and holding it to post would hold its size.
func (b *Bridge) refuseLong(head []byte, size int64) error {
	conn := "http POST " + strconv.FormatUint(b.seq.Add(1), 10)
	e := &BodyTooLongError{Size: size, Max: maxBody, Kept: len(head)}
	b.tap.frame(capture.Out, conn, &capture.Frame{
		Chan: capture.Channel{Kind: capture.Control}, Raw: head, Kept: len(head), Size: int(min(size, int64(^uint(0)>>1))),
		Enc: proto.EncJSON, Err: fmt.Errorf("not posted: %w", e),
		Fields: []proto.Field{{Offset: 0, Len: len(head), Name: "body (head)",
			Value: fmt.Sprintf("first %d of %d bytes", len(head), size), Kind: proto.FieldBody}},
	})
	why := fmt.Sprintf("the message is %d bytes, longer than the %d the bridge posts", size, maxBody)
	return b.failed(headEnvelope(head), conn, why, &lineHost{b: b, conn: conn})
}

// headEnvelope reads the id and method of the message whose first bytes
// are head, as far as head holds them whole: the members of its top
// object are read in order until one is cut off.
func headEnvelope(head []byte) envelope {
	var env envelope
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return env
	}
	for dec.More() {
		t, err := dec.Token()
		key, ok := t.(string)
		if err != nil || !ok {
			return env
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return env
		}
		switch key {
		case "id":
			env.ID = v
		case "method":
			_ = json.Unmarshal(v, &env.Method)
		}
	}
	return env
}
