package oauth

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/recordings"
)

// maxCapturedBody caps the bytes of a body the flow sends or reads (1 MiB,
// the bound oauth2 and the SDK read a token or metadata answer to): its
// answers (metadata, registration, tokens) are far smaller, and a larger
// one is refused, saying so, rather than cut short.
const maxCapturedBody = 1 << 20

// ConnName names the flow's exchanges in frames: "oauth 1", "oauth 2".
const ConnName = "oauth"

// capturer is the round tripper of the flow's own requests (metadata,
// registration, token): each exchange's request line, headers and body and
// its status line, headers and body are frames on the HTTP channel, with
// credentials masked unless the user asked to see them, and each answer is
// told to the flow, which turns it into a step of the checklist.
type capturer struct {
	base http.RoundTripper
	f    *Flow
	n    atomic.Int64
}

// RoundTrip captures req, sends it, and captures and observes the answer.
func (c *capturer) RoundTrip(req *http.Request) (*http.Response, error) {
	conn := fmt.Sprintf("%s %d", ConnName, c.n.Add(1))
	sent, err := bodyOf(req)
	if err != nil {
		return nil, err
	}
	name := classify(req, sent)
	if name == StepRefresh || (name == StepToken && c.f.cfg.ClientCredentials) {
		sent = c.f.withResource(req, sent)
	}
	if name != "" {
		c.f.setUnder(name)
	}
	c.f.reportHead(capture.Out, conn, requestHead(req, c.f.cfg.NoRedact))
	c.f.reportBody(capture.Out, conn, sent)
	start := time.Now()
	rsp, err := c.base.RoundTrip(req)
	if err != nil {
		c.f.observe(req, sent, nil, nil, err, time.Since(start))
		return nil, err
	}
	raw, fields := httphead.HTTPResponseHead(rsp.Proto, rsp.StatusCode, httphead.CapturedHeaders(rsp.Header, c.f.cfg.NoRedact))
	c.f.reportHead(capture.In, conn, &capture.Frame{Raw: raw, Fields: fields})
	got, err := io.ReadAll(io.LimitReader(rsp.Body, maxCapturedBody+1))
	if err == nil && len(got) > maxCapturedBody {
		err = fmt.Errorf("the answer is over %d MiB, the limit of an OAuth metadata, registration or token answer: not read further", maxCapturedBody>>20)
		got = got[:maxCapturedBody]
	}
	rsp.Body.Close()
	if err != nil {
		c.f.observe(req, sent, rsp, nil, err, time.Since(start))
		return nil, fmt.Errorf("reading the answer of %s %s: %w", req.Method, req.URL.Redacted(), err)
	}
	rsp.Body = io.NopCloser(bytes.NewReader(got))
	c.f.reportBody(capture.In, conn, got)
	c.f.observe(req, sent, rsp, got, nil, time.Since(start))
	if name == StepRegistration && c.f.cfg.ClientMetadataURL != "" {
		// The flag named a way the server does not take: said beside
		// the registration's frames, and to the user.
		c.f.note(conn, noCIMD)
		c.f.say(noCIMD)
	}
	return rsp, nil
}

// bodyOf reads the body of req and puts it back, so that it can be
// captured before it is sent.
func bodyOf(req *http.Request) ([]byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	b, err := io.ReadAll(io.LimitReader(req.Body, maxCapturedBody+1))
	req.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("reading the body of %s %s: %w", req.Method, req.URL.Redacted(), err)
	}
	if len(b) > maxCapturedBody {
		return nil, fmt.Errorf("the body of %s %s is over %d bytes", req.Method, req.URL.Redacted(), maxCapturedBody)
	}
	req.Body = io.NopCloser(bytes.NewReader(b))
	return b, nil
}

// withResource adds the resource parameter (RFC 8707) to a refresh or a
// client_credentials request that lacks it, as MCP asks of every token
// request; oauth2 sends only the grant, the refresh token or the client's
// credentials, and the scope.
func (f *Flow) withResource(req *http.Request, body []byte) []byte {
	form, err := url.ParseQuery(string(body))
	if err != nil || form.Has("resource") {
		return body
	}
	f.mu.Lock()
	audience := cmp.Or(f.audience, f.entry.Audience, f.cfg.Resource)
	f.mu.Unlock()
	body = append(body, "&resource="+url.QueryEscape(audience)...)
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return body
}

// requestHead is the frame of req's request line and headers.
func requestHead(req *http.Request, noRedact bool) *capture.Frame {
	h := req.Header.Clone()
	if h.Get("Host") == "" {
		h.Set("Host", req.URL.Host)
	}
	raw, fields := httphead.HTTPRequestHead(req.Method, req.URL.RequestURI(), httphead.CapturedHeaders(h, noRedact))
	return &capture.Frame{Raw: raw, Fields: fields}
}

// reportHead stamps a head frame and hands it to the sink.
func (f *Flow) reportHead(dir capture.Dir, conn string, fr *capture.Frame) {
	fr.Enc = proto.EncText
	f.report(dir, conn, fr)
}

// reportBody hands a body to the sink as a text frame of the HTTP
// channel, its credentials masked: secret JSON members and form fields
// (access_token, refresh_token, client_secret, code_verifier…) and the
// authorization code this flow received.
func (f *Flow) reportBody(dir capture.Dir, conn string, body []byte) {
	if len(body) == 0 {
		return
	}
	shown := f.mask(body)
	enc := proto.EncText
	if t := bytes.TrimLeft(shown, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		enc = proto.EncJSON
	}
	f.report(dir, conn, &capture.Frame{
		Raw: shown, Enc: enc, Size: len(body),
		Fields: []proto.Field{{Offset: 0, Len: len(shown), Name: "body", Kind: proto.FieldBody}},
	})
}

// mask returns b with its credentials masked, unless the user asked to
// see them. The masks keep every length.
func (f *Flow) mask(b []byte) []byte {
	if f.cfg.NoRedact {
		return b
	}
	out := recordings.Redact(b)
	f.mu.Lock()
	literals := []string{f.code, f.cfg.ClientSecret}
	f.mu.Unlock()
	for _, lit := range literals {
		if len(lit) >= 4 && bytes.Contains(out, []byte(lit)) {
			out = bytes.ReplaceAll(out, []byte(lit), []byte(strings.Repeat("*", len(lit))))
		}
	}
	return out
}

// report stamps fr and hands it to the sink.
func (f *Flow) report(dir capture.Dir, conn string, fr *capture.Frame) {
	if f.cfg.Sink == nil {
		return
	}
	fr.Time = time.Now()
	fr.Dir = dir
	fr.Conn = conn
	fr.Chan = capture.Channel{Kind: capture.HTTP}
	if fr.Size == 0 {
		fr.Size = len(fr.Raw)
	}
	f.cfg.Sink.Append(fr)
}

// note captures a line that says what the flow did without bytes of its
// own on the wire: the browser opened on a URL.
func (f *Flow) note(conn, text string) {
	raw := []byte(text)
	f.report(capture.Out, conn, &capture.Frame{
		Raw: raw, Enc: proto.EncText,
		Fields: []proto.Field{{Offset: 0, Len: len(raw), Name: "note", Value: text, Kind: proto.FieldHeader}},
	})
}
