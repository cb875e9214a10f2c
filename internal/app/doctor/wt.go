package doctor

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"

	"github.com/quic-go/quic-go"
	wt "github.com/quic-go/webtransport-go"

	"github.com/mcpscope/mcpscope/internal/app/checklist"
)

// quic checks an MCP-Flow target: a QUIC connection over UDP speaking
// HTTP/3 with datagrams, its certificate, and the WebTransport session on
// that connection.
func (w *walk) quic(addrs []string) {
	var conn *quic.Conn
	w.step("quic", func(ctx context.Context) (string, error) {
		conf := &tls.Config{ServerName: w.cfg.URL.Hostname(), InsecureSkipVerify: true, NextProtos: []string{"h3"}, MinVersion: tls.VersionTLS13}
		qconf := &quic.Config{EnableDatagrams: true, EnableStreamResetPartialDelivery: true}
		c, err := firstAnswer(ctx, addrs, w.port(), func(ctx context.Context, addr string) (*quic.Conn, error) {
			return quic.DialAddr(ctx, addr, conf, qconf)
		})
		if err != nil {
			var idle *quic.IdleTimeoutError
			var hs *quic.HandshakeTimeoutError
			if errors.As(err, &idle) || errors.As(err, &hs) || errors.Is(err, context.DeadlineExceeded) {
				return "", fail(checklist.Timeout, "start the server, or check the host, the port and that UDP is not blocked", "no QUIC answer from %s (UDP): %w", w.hostPort(), err)
			}
			return "", fail(checklist.Connection, "check that the port serves HTTP/3 over QUIC", "QUIC handshake with %s: %w", w.hostPort(), err)
		}
		conn = c
		if !c.ConnectionState().SupportsDatagrams.Remote {
			return "", fail(checklist.Protocol, "enable QUIC datagrams on the server (MCP-Flow needs them)", "the server does not support QUIC datagrams")
		}
		return fmt.Sprintf("HTTP/3 over QUIC to %s, datagrams on", w.hostPort()), nil
	})
	if conn != nil {
		defer func() { _ = conn.CloseWithError(0, "") }()
	}
	if w.failed {
		w.skip("tls", "")
	} else {
		w.step("tls", func(context.Context) (string, error) {
			return w.checkState(conn.ConnectionState().TLS)
		})
	}
	w.step("webtransport", func(ctx context.Context) (string, error) {
		var d wt.Transport
		defer d.Close()
		cc, err := d.NewClientConn(conn)
		if err != nil {
			return "", fmt.Errorf("opening the WebTransport session: %w", err)
		}
		u := *w.cfg.URL
		u.Scheme = "https"
		rsp, sess, err := cc.Dial(ctx, u.String(), w.header())
		if err != nil {
			if rsp != nil {
				detail, _, jerr := judgeHTTP("CONNECT", rsp, w.cfg.Origin, false, w.cfg.Authorization != nil)
				if jerr != nil {
					return detail, jerr
				}
				return "", fail(checklist.Connection, "check the URL's path", "the server refused the WebTransport session with %s: %w", rsp.Status, err)
			}
			return "", fmt.Errorf("opening the WebTransport session: %w", err)
		}
		_ = sess.CloseWithError(0, "")
		return "CONNECT " + rsp.Status + ", session open", nil
	})
	w.skip("auth", "MCP-Flow carries no HTTP challenge")
}
