package httprelay

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proxy"
)

// aside is the host's side of a request the host did not make (an
// injected request, a duplicate): what the server answers is captured
// and kept from the host.
type aside struct {
	tap  tap
	conn string
	post func(ctx context.Context, body []byte) error
}

// Pass toward the server posts h; toward the host it goes nowhere (Relay
// captured it already).
func (a aside) Pass(ctx context.Context, h proxy.Hop) error {
	if h.Dir == capture.Out {
		return a.post(ctx, h.Raw)
	}
	a.tap.mark(h.Dir, a.conn, proxy.Mark{What: proxy.WhatKept, Note: "on the answer of a request the host did not make; not delivered to the host"})
	return nil
}

// Send toward the server posts body; toward the host it goes nowhere.
func (a aside) Send(ctx context.Context, dir capture.Dir, body []byte) error {
	return a.Pass(ctx, proxy.Hop{Dir: dir, Raw: body})
}

// Cut has no host connection to cut.
func (aside) Cut(string) {}

func (aside) raw(context.Context, []byte) error { return nil }

// carry reads src to its end: its answer is kept from the host.
func (aside) carry(_ context.Context, src io.Reader) (werr, rerr error) {
	_, rerr = io.Copy(io.Discard, src)
	return nil, rerr
}

// inject is the session's Injector: body goes to where the host last
// posted, with the host's last session id, protocol version and
// Authorization; once the server's answer head came, its messages are
// read on and kept from the host (the session keeps answers to injected
// requests).
func (r *Relay) inject(ctx context.Context, body []byte) error {
	r.mu.Lock()
	target, session, version, auth := r.target, r.session, r.version, r.auth
	r.mu.Unlock()
	if target == "" {
		return proxy.ErrNoServerPath
	}
	u, err := url.Parse(target)
	if err != nil {
		return err
	}
	h := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"}}
	for k, v := range map[string]string{"Mcp-Session-Id": session, "Mcp-Protocol-Version": version, "Authorization": auth} {
		if v != "" {
			h.Set(k, v)
		}
	}
	req := &http.Request{Method: http.MethodPost, URL: u, Header: h}
	return r.postAside(ctx, req, body)
}

// postAside posts body as like's request would go, in a request of its
// own whose answer is kept from the host. It returns once the answer's
// head came; the answer is read on until it ends or the relay closes.
func (r *Relay) postAside(ctx context.Context, like *http.Request, body []byte) error {
	conn := "http POST " + strconv.FormatUint(r.seq.Add(1), 10) + " (proxy)"
	up, err := r.upstreamRequest(r.ctx, like, body)
	if err != nil {
		return err
	}
	r.tap.request(conn, up)
	type result struct {
		rsp *http.Response
		err error
	}
	got := make(chan result, 1)
	go func() {
		rsp, err := r.opt.Client.Do(up)
		got <- result{rsp, err}
	}()
	var res result
	select {
	case res = <-got:
	case <-ctx.Done():
		go func() { // the answer still comes; it is read and dropped
			if res := <-got; res.err == nil {
				res.rsp.Body.Close()
			}
		}()
		return ctx.Err()
	}
	if res.err != nil {
		err := unreachable(r.opt.Upstream, res.err)
		r.tap.note(capture.In, conn, err.Error(), err)
		return err
	}
	r.tap.response(conn, res.rsp)
	if res.rsp.StatusCode >= 300 {
		defer res.rsp.Body.Close()
		a := &answer{sess: r.sess, tap: r.tap, conn: conn, rsp: res.rsp, host: aside{tap: r.tap, conn: conn}}
		_ = a.relay(r.ctx)
		return errors.New("the server answered " + res.rsp.Status)
	}
	go func() {
		defer res.rsp.Body.Close()
		a := &answer{sess: r.sess, tap: r.tap, conn: conn, rsp: res.rsp, host: aside{tap: r.tap, conn: conn}}
		_ = a.relay(r.ctx)
	}()
	return nil
}

// rewriteEndpoint gives the bytes of a legacy stream's endpoint event as
// they go to the host: an absolute URL on the server's origin names the
// proxy's origin instead, so that the host posts through the proxy; a
// relative URL, or one of another origin, goes as it came.
func (r *Relay) rewriteEndpoint(ex *exchange, raw []byte, data string) []byte {
	up := r.opt.Upstream
	u, err := url.Parse(data)
	if err != nil || !u.IsAbs() || u.Scheme != up.Scheme || u.Host != up.Host {
		if err == nil && u.IsAbs() {
			r.tap.note(capture.In, ex.conn, "the endpoint event names another origin than the server's; passed on as it came", nil)
		}
		return raw
	}
	local := "http://" + ex.req.Host
	rewritten := local + u.RequestURI()
	if prefix := up.Scheme + "://" + up.Host; strings.HasPrefix(data, prefix) {
		rewritten = local + data[len(prefix):]
	}
	out := bytes.Replace(raw, []byte(data), []byte(rewritten), 1)
	if bytes.Equal(out, raw) {
		out = []byte("event: endpoint\ndata: " + rewritten + "\n\n")
	}
	r.tap.mark(capture.In, ex.conn, proxy.Mark{What: proxy.WhatEdited, Note: "the endpoint event names the proxy's origin " + local + " instead of the server's"})
	r.tap.event(ex.conn, out, int64(len(out)), nil)
	return out
}
