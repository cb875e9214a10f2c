package webtransport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/quic-go/quic-go"
	wt "github.com/quic-go/webtransport-go"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/tlsconf"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
)

// Codes the client closes a session or cancels a stream with.
const (
	sessionCodeShutdown wt.SessionErrorCode = 0 // CloseWithError(0, "shutdown")
	sessionCodeError    wt.SessionErrorCode = 1 // a protocol violation ended the session

	// StreamCodeInjection cancels reading an injected execution stream.
	StreamCodeInjection wt.StreamErrorCode = 0x32002
	// StreamCodeAborted cancels reading a stream the client cannot store
	// or no longer waits for.
	StreamCodeAborted wt.StreamErrorCode = 0x32603
)

// keepAlive keeps an idle session open through NATs and idle timeouts.
const keepAlive = 15 * time.Second

// dial opens the WebTransport session, reporting the CONNECT request and
// its response as HTTP frames.
func (t *Transport) dial(ctx context.Context) (*wt.Session, error) {
	keyLog, err := tlsconf.OpenKeyLog(t.cfg.KeyLogFile)
	if err != nil {
		return nil, err
	}
	var keyLogWriter io.Writer
	if keyLog != nil {
		t.mu.Lock()
		t.keyLog = keyLog
		t.mu.Unlock()
		keyLogWriter = keyLog
	}
	d := &wt.Transport{
		TLSClientConfig: t.tlsConfig(keyLogWriter),
		QUICConfig: &quic.Config{
			EnableDatagrams:                  true,
			EnableStreamResetPartialDelivery: true,
			KeepAlivePeriod:                  keepAlive,
		},
	}
	defer d.Close()
	hdr := t.requestHeader()
	t.report(capture.Out, httpFrame(requestText(t.url.String(), t.headerLines(hdr))))
	rsp, sess, err := d.Dial(ctx, t.url.String(), hdr)
	if rsp != nil {
		t.report(capture.In, httpFrame(responseText(rsp.Status, t.headerLines(rsp.Header))))
	}
	if err != nil {
		return nil, t.dialFailure(ctx, err, rsp)
	}
	return sess, nil
}

// requestHeader is the header of the CONNECT request.
func (t *Transport) requestHeader() http.Header {
	hdr := t.cfg.Header.Clone()
	if hdr == nil {
		hdr = make(http.Header)
	}
	if t.cfg.Origin != "" {
		hdr.Set("Origin", t.cfg.Origin)
	}
	return hdr
}

// dialFailure says in one sentence why the session could not be opened.
// The caller names the URL. A start limit that ended ctx (see
// client.StartLimit) is named as the wait it cut short.
func (t *Transport) dialFailure(ctx context.Context, err error, rsp *http.Response) error {
	if cert := tlsFailure(err); cert != nil {
		return cert
	}
	if rsp != nil && (rsp.StatusCode < 200 || rsp.StatusCode > 299) {
		return fmt.Errorf("the server refused the WebTransport session with HTTP status %s: %w", rsp.Status, err)
	}
	var idle *quic.IdleTimeoutError
	var hs *quic.HandshakeTimeoutError
	if limit := client.StartLimit(ctx); limit != nil {
		return fmt.Errorf("no answer over QUIC (UDP) from %s %w; is an MCP-Flow server listening there?", t.url.Host, limit)
	}
	if errors.As(err, &idle) || errors.As(err, &hs) {
		return fmt.Errorf("no answer over QUIC (UDP) from %s; is an MCP-Flow server listening there? (%w)", t.url.Host, err)
	}
	return fmt.Errorf("opening the WebTransport session failed: %w", err)
}

// httpFrame is a frame on the HTTP channel holding text.
func httpFrame(text string) *capture.Frame {
	raw := []byte(text)
	return &capture.Frame{
		Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Size: len(raw), Enc: proto.EncText,
		Fields: []proto.Field{{Offset: 0, Len: len(raw), Name: "header", Value: firstLine(text), Kind: proto.FieldHeader}},
	}
}

// requestText renders the CONNECT request as HTTP/1-style text.
func requestText(target string, hdr []httphead.HTTPHeader) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CONNECT %s HTTP/3 (:protocol webtransport)\r\n", target)
	writeHeader(&b, hdr)
	return b.String()
}

// responseText renders the CONNECT response as HTTP/1-style text.
func responseText(status string, hdr []httphead.HTTPHeader) string {
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP/3 %s\r\n", status)
	writeHeader(&b, hdr)
	return b.String()
}

// headerLines are hdr's lines in key order, credentials redacted unless
// Config.NoRedact.
func (t *Transport) headerLines(hdr http.Header) []httphead.HTTPHeader {
	return httphead.CapturedHeaders(hdr, t.cfg.NoRedact)
}

// writeHeader writes header lines.
func writeHeader(b *strings.Builder, hdr []httphead.HTTPHeader) {
	for _, h := range hdr {
		fmt.Fprintf(b, "%s: %s\r\n", h.Name, h.Value)
	}
}

// firstLine returns text up to its first line break.
func firstLine(text string) string {
	line, _, _ := strings.Cut(text, "\r\n")
	return line
}

// oneLine folds line breaks so that a reason fits a close message.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
