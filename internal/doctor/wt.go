package doctor

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"

	"github.com/quic-go/quic-go"
	wt "github.com/quic-go/webtransport-go"
)

// quic checks an MCP-Flow target: a QUIC connection over UDP speaking
// HTTP/3 with datagrams, its certificate, and the WebTransport session.
func (w *walk) quic() {
	var state quic.ConnectionState
	w.step("quic", func(ctx context.Context) (string, error) {
		conf := &tls.Config{ServerName: w.cfg.URL.Hostname(), InsecureSkipVerify: true, NextProtos: []string{"h3"}, MinVersion: tls.VersionTLS13}
		conn, err := quic.DialAddr(ctx, w.hostPort(), conf, &quic.Config{EnableDatagrams: true})
		if err != nil {
			var idle *quic.IdleTimeoutError
			var hs *quic.HandshakeTimeoutError
			if errors.As(err, &idle) || errors.As(err, &hs) || errors.Is(err, context.DeadlineExceeded) {
				return "", fail(Connection, "start the server, or check the host, the port and that UDP is not blocked", "no QUIC answer from %s (UDP): %w", w.hostPort(), err)
			}
			return "", fail(Connection, "check that the port serves HTTP/3 over QUIC", "QUIC handshake with %s: %w", w.hostPort(), err)
		}
		state = conn.ConnectionState()
		_ = conn.CloseWithError(0, "")
		if !state.SupportsDatagrams.Remote {
			return "", fail(Protocol, "enable QUIC datagrams on the server (MCP-Flow needs them)", "the server does not support QUIC datagrams")
		}
		return fmt.Sprintf("HTTP/3 over QUIC to %s, datagrams on", w.hostPort()), nil
	})
	if w.failed {
		w.skip("tls", "")
	} else {
		w.step("tls", func(context.Context) (string, error) {
			return w.checkState(state.TLS)
		})
	}
	w.step("webtransport", func(ctx context.Context) (string, error) {
		d := &wt.Transport{TLSClientConfig: w.clientTLS(), QUICConfig: &quic.Config{EnableDatagrams: true, EnableStreamResetPartialDelivery: true}}
		defer d.Close()
		u := *w.cfg.URL
		u.Scheme = "https"
		rsp, sess, err := d.Dial(ctx, u.String(), w.header())
		if err != nil {
			if rsp != nil {
				detail, _, jerr := judgeHTTP("CONNECT", rsp, w.cfg.Origin, false)
				if jerr != nil {
					return detail, jerr
				}
				return "", fail(Connection, "check the URL's path", "the server refused the WebTransport session with %s: %w", rsp.Status, err)
			}
			return "", fmt.Errorf("opening the WebTransport session: %w", err)
		}
		_ = sess.CloseWithError(0, "")
		return "CONNECT " + rsp.Status + ", session open", nil
	})
	w.skip("auth", "MCP-Flow carries no HTTP challenge")
}
