package wsrelay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
)

// ServeHTTP relays one host connection: the server is dialed first with
// what the host asked, then the host is accepted with what the server
// chose; the link lives until either side closes.
func (r *Relay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if !strings.EqualFold(req.Header.Get("Upgrade"), "websocket") {
		msg := "mcpscope proxy: this endpoint relays WebSocket connections to " + r.base.Redacted() + "; connect with a WebSocket client"
		http.Error(w, msg, http.StatusUpgradeRequired)
		return
	}
	r.wg.Add(1)
	defer r.wg.Done()
	l := &link{r: r}
	r.opened(l)
	defer r.closed(l)
	target := *r.base
	target.Path, target.RawPath = req.URL.Path, req.URL.RawPath
	if req.URL.RawQuery != "" {
		target.RawQuery = req.URL.RawQuery // else the upstream URL's own
	}
	l.head(capture.Out, req.Method, requestTarget(req, r.opt.NoRedact), req.Header)

	ctx, cancel := context.WithTimeout(req.Context(), dialTimeout)
	up, rsp, err := websocket.Dial(ctx, target.String(), &websocket.DialOptions{
		HTTPClient:      r.hc,
		HTTPHeader:      forwarded(req.Header),
		Subprotocols:    offered(req.Header),
		CompressionMode: websocket.CompressionDisabled,
	})
	cancel()
	if rsp != nil {
		l.response(rsp)
	}
	if err != nil {
		l.refuse(w, rsp, target.Redacted(), err)
		return
	}
	var chosen []string
	if p := up.Subprotocol(); p != "" {
		chosen = []string{p}
	}
	host, err := websocket.Accept(w, req, &websocket.AcceptOptions{
		Subprotocols: chosen,
		// The host's Origin went to the server, which decides on it.
		InsecureSkipVerify: true,
		CompressionMode:    websocket.CompressionDisabled,
	})
	if err != nil {
		l.note(capture.Out, "the host's upgrade failed: "+err.Error())
		_ = up.Close(websocket.StatusGoingAway, "mcpscope proxy: the host's upgrade failed")
		return
	}
	if p := up.Subprotocol(); p != host.Subprotocol() {
		l.note(capture.In, fmt.Sprintf("the server chose the subprotocol %q, which the host did not offer: the host got none", p))
	}
	up.SetReadLimit(int64(r.opt.MaxMessage))
	host.SetReadLimit(int64(r.opt.MaxMessage))
	l.started(host, up)
	l.run(req.Context())
}

// refuse answers a host whose server could not be reached: the server's
// own refusal (status, headers and the start of its body) when it
// answered, else 502 Bad Gateway saying why.
func (l *link) refuse(w http.ResponseWriter, rsp *http.Response, target string, err error) {
	if rsp != nil && rsp.StatusCode != http.StatusSwitchingProtocols {
		body, _ := io.ReadAll(io.LimitReader(rsp.Body, 1024))
		for k, vs := range rsp.Header {
			if !hopByHop(k) && !strings.EqualFold(k, "Content-Length") {
				w.Header()[k] = vs
			}
		}
		l.note(capture.In, fmt.Sprintf("the server refused the upgrade with %s; the host is answered the same", rsp.Status))
		w.WriteHeader(rsp.StatusCode)
		_, _ = w.Write(body)
		return
	}
	msg := fmt.Sprintf("mcpscope proxy: could not open the WebSocket to %s: %v", target, err)
	if errors.Is(err, context.DeadlineExceeded) {
		msg = fmt.Sprintf("mcpscope proxy: no answer from %s within %s", target, dialTimeout)
	}
	l.note(capture.In, msg)
	http.Error(w, msg, http.StatusBadGateway)
}

// head captures an upgrade request's head, credentials redacted unless
// asked.
func (l *link) head(dir capture.Dir, method, target string, h http.Header) {
	raw, fields := httphead.HTTPRequestHead(method, target, httphead.CapturedHeaders(h, l.r.opt.NoRedact))
	l.capture(&capture.Frame{Dir: dir, Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Fields: fields, Enc: proto.EncText})
}

// response captures the server's answer to the upgrade.
func (l *link) response(rsp *http.Response) {
	raw, fields := httphead.HTTPResponseHead(rsp.Proto, rsp.StatusCode, httphead.CapturedHeaders(rsp.Header, l.r.opt.NoRedact))
	l.capture(&capture.Frame{Dir: capture.In, Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Fields: fields, Enc: proto.EncText})
}

// note captures a line saying what happened without bytes of its own.
func (l *link) note(dir capture.Dir, text string) {
	raw := []byte(text)
	l.capture(&capture.Frame{
		Dir: dir, Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Enc: proto.EncText,
		Fields: []proto.Field{{Offset: 0, Len: len(raw), Name: "note", Value: text, Kind: proto.FieldHeader}},
	})
}

// requestTarget is the host's request target as captured: secret query
// values redacted unless asked not to.
func requestTarget(req *http.Request, noRedact bool) string {
	if noRedact {
		return req.URL.RequestURI()
	}
	return httphead.RedactQuery(req.URL.RequestURI())
}

// offered are the subprotocols of the host's upgrade, in its order.
func offered(h http.Header) []string {
	var out []string
	for _, v := range h.Values("Sec-WebSocket-Protocol") {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// forwarded is the host's upgrade header as the server gets it: all of it
// (Authorization, cookies and Origin untouched) but what belongs to the
// hop and the handshake, which the proxy's own upgrade sets.
func forwarded(h http.Header) http.Header {
	out := http.Header{}
	for k, vs := range h {
		if hopByHop(k) || strings.HasPrefix(http.CanonicalHeaderKey(k), "Sec-Websocket-") {
			continue
		}
		out[k] = append([]string(nil), vs...)
	}
	return out
}

// hopByHop says whether a header belongs to one connection only.
func hopByHop(k string) bool {
	switch http.CanonicalHeaderKey(k) {
	case "Connection", "Upgrade", "Keep-Alive", "Proxy-Connection", "Proxy-Authorization",
		"Proxy-Authenticate", "Te", "Trailer", "Transfer-Encoding", "Host":
		return true
	}
	return false
}
