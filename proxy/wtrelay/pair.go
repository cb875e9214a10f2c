package wtrelay

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/quic-go/quic-go"
	wt "github.com/quic-go/webtransport-go"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
)

// Directions, named for the side a message goes to.
const (
	outward = capture.Out // host → server
	inward  = capture.In  // server → host
)

// Codes the proxy closes a session with.
const (
	sessionCodeShutdown wt.SessionErrorCode = 0
	sessionCodeError    wt.SessionErrorCode = 1
)

// dialTimeout bounds reaching the server for one host session.
const dialTimeout = 15 * time.Second

// pair is one host session and its twin to the server.
type pair struct {
	r        *Relay
	conn     string // the capture's connection name
	host, up *wt.Session
	control  control
	streams  sync.WaitGroup // the stream relays of the pair

	mu     sync.Mutex // guards host and up until both are set
	ending sync.Once
}

// started sets the two sessions of the pair.
func (p *pair) started(host, up *wt.Session) {
	p.mu.Lock()
	p.host, p.up = host, up
	p.mu.Unlock()
}

// capture appends f on the pair's connection, stamped.
func (p *pair) capture(f *capture.Frame) uint64 {
	return p.r.sess.CaptureOn(p.conn, f)
}

// note captures a line saying what happened without bytes of its own.
func (p *pair) note(dir capture.Dir, text string) {
	raw := []byte(text)
	p.capture(&capture.Frame{
		Dir: dir, Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Enc: proto.EncText,
		Fields: []proto.Field{{Offset: 0, Len: len(raw), Name: "note", Value: text, Kind: proto.FieldHeader}},
	})
}

// head captures a CONNECT request or its answer (status 0: a request).
func (p *pair) head(dir capture.Dir, target string, status int, h http.Header) {
	lines := httphead.CapturedHeaders(h, p.r.opt.NoRedact)
	var raw []byte
	var fields []proto.Field
	if status == 0 {
		raw, fields = httphead.HTTPRequestHead("CONNECT", target, lines)
	} else {
		raw, fields = httphead.HTTPResponseHead("HTTP/3", status, lines)
	}
	p.capture(&capture.Frame{Dir: dir, Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Fields: fields, Enc: proto.EncText})
}

// handle relays one host session: the server's session is opened first
// with what the host asked; a refusal is the host's refusal, with the
// reason.
func (r *Relay) handle(ctx context.Context, srv *wt.Server, w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodConnect {
		http.Error(w, "mcpscope proxy: this endpoint relays WebTransport sessions (extended CONNECT) to "+r.base.Redacted(), http.StatusMethodNotAllowed)
		return
	}
	r.wg.Add(1)
	defer r.wg.Done()
	p := &pair{r: r}
	p.control.p = p
	r.opened(p)
	defer r.closed(p)
	target := *r.base
	target.Path, target.RawPath = req.URL.Path, req.URL.RawPath
	if req.URL.RawQuery != "" {
		target.RawQuery = req.URL.RawQuery // else the upstream URL's own
	}
	p.head(outward, requestTarget(req, r.opt.NoRedact), 0, req.Header)

	d := &wt.Transport{TLSClientConfig: r.tls, QUICConfig: &quic.Config{
		EnableDatagrams: true, EnableStreamResetPartialDelivery: true, KeepAlivePeriod: keepAlive,
	}}
	defer d.Close()
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	rsp, up, err := d.Dial(dctx, target.String(), forwarded(req.Header))
	cancel()
	if rsp != nil {
		p.head(inward, "", rsp.StatusCode, rsp.Header)
	}
	if err != nil {
		p.refuse(w, rsp, target.Redacted(), err)
		return
	}
	host, err := srv.Upgrade(w, req)
	if err != nil {
		p.note(outward, "the host's upgrade failed: "+err.Error())
		_ = up.CloseWithError(sessionCodeError, "mcpscope proxy: the host's upgrade failed")
		return
	}
	p.started(host, up)
	p.run(ctx)
}

// refuse answers a host whose server could not be reached: the server's
// own status when it answered, else 502 Bad Gateway, with the reason.
func (p *pair) refuse(w http.ResponseWriter, rsp *http.Response, target string, err error) {
	status := http.StatusBadGateway
	msg := fmt.Sprintf("mcpscope proxy: could not open the WebTransport session to %s: %v", target, err)
	if rsp != nil && (rsp.StatusCode < 200 || rsp.StatusCode > 299) {
		status = rsp.StatusCode
		msg = fmt.Sprintf("mcpscope proxy: the server refused the WebTransport session with %s", rsp.Status)
	}
	p.note(inward, msg)
	http.Error(w, msg, status)
}

// run relays everything of the two sessions until either ends, which
// ends the other.
func (p *pair) run(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	wg.Go(func() { p.control.run(ctx) })
	wg.Go(func() { p.acceptUni(ctx, inward, p.up, p.host) })
	wg.Go(func() { p.acceptUni(ctx, outward, p.host, p.up) })
	wg.Go(func() { p.acceptBidi(ctx, inward, p.up, p.host) })
	wg.Go(func() { p.datagrams(inward, p.up, p.host) })
	wg.Go(func() { p.datagrams(outward, p.host, p.up) })
	select {
	case <-p.host.Context().Done():
		p.ended(outward, context.Cause(p.host.Context()))
	case <-p.up.Context().Done():
		p.ended(inward, context.Cause(p.up.Context()))
	case <-ctx.Done():
		p.closeBoth(sessionCodeShutdown, "the proxy stopped")
	}
	cancel() // a paused message of the pair waits no more
	wg.Wait()
	p.streams.Wait()
}

// ended closes the other session after the side dir's session ended with
// cause: its code and message go on.
func (p *pair) ended(dir capture.Dir, cause error) {
	who := "the host"
	if dir == inward {
		who = "the server"
	}
	var se *wt.SessionError
	if errors.As(cause, &se) {
		p.note(dir, fmt.Sprintf("%s closed the session (code %d: %q)", who, se.ErrorCode, se.Message))
		p.closeBoth(se.ErrorCode, se.Message)
		return
	}
	p.note(dir, fmt.Sprintf("%s's session ended: %v", who, cause))
	p.closeBoth(sessionCodeError, "mcpscope proxy: "+who+"'s session ended")
}

// closeBoth closes both sessions once with code and msg.
func (p *pair) closeBoth(code wt.SessionErrorCode, msg string) {
	p.mu.Lock()
	host, up := p.host, p.up
	p.mu.Unlock()
	if host == nil {
		return
	}
	p.ending.Do(func() {
		_ = host.CloseWithError(code, msg)
		_ = up.CloseWithError(code, msg)
	})
}

// Cut ends the pair on purpose (a fault), saying why.
func (p *pair) Cut(reason string) { p.closeBoth(sessionCodeError, "mcpscope proxy: "+reason) }

// requestTarget is the host's request target as captured: secret query
// values redacted unless asked not to.
func requestTarget(req *http.Request, noRedact bool) string {
	if noRedact {
		return req.URL.RequestURI()
	}
	return httphead.RedactQuery(req.URL.RequestURI())
}

// forwarded is the host's CONNECT header as the server gets it: all of it
// (Authorization, cookies and Origin untouched) but what the proxy's own
// request sets.
func forwarded(h http.Header) http.Header {
	out := http.Header{}
	for k, vs := range h {
		switch ck := http.CanonicalHeaderKey(k); {
		case ck == "Host", ck == "Content-Length", strings.HasPrefix(ck, "Sec-Webtransport-"), strings.HasPrefix(ck, "Wt-"):
			continue
		}
		out[k] = append([]string(nil), vs...)
	}
	return out
}
