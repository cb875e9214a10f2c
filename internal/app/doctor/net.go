package doctor

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/checklist"
)

// resolve looks host up; an IP literal resolves to itself.
func resolve(ctx context.Context, host string) ([]string, error) {
	if ip := net.ParseIP(host); ip != nil {
		return []string{ip.String()}, nil
	}
	addrs, err := net.DefaultResolver.LookupHost(ctx, host)
	if err != nil {
		var dnsErr *net.DNSError
		if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
			return nil, fail(checklist.Connection, "check the host name in the URL (a typo, or a name only another network knows)", "the name %s does not resolve: %w", host, err)
		}
		return nil, fmt.Errorf("looking up %s: %w", host, err)
	}
	return addrs, nil
}

// describeAddrs says what a lookup found.
func describeAddrs(host string, addrs []string) string {
	if len(addrs) == 1 && addrs[0] == host {
		return host + " is an address (no lookup)"
	}
	const shown = 3
	list := addrs
	if len(list) > shown {
		list = list[:shown]
	}
	more := ""
	if len(addrs) > shown {
		more = fmt.Sprintf(" and %d more", len(addrs)-shown)
	}
	return fmt.Sprintf("%s → %s%s", host, strings.Join(list, ", "), more)
}

// port is the URL's port, or its scheme's default.
func (w *walk) port() string {
	if port := w.cfg.URL.Port(); port != "" {
		return port
	}
	if w.secure() {
		return "443"
	}
	return "80"
}

// hostPort is the URL's address with the scheme's default port.
func (w *walk) hostPort() string {
	return net.JoinHostPort(w.cfg.URL.Hostname(), w.port())
}

// secure reports whether the URL asks for TLS.
func (w *walk) secure() bool {
	switch strings.ToLower(w.cfg.URL.Scheme) {
	case "https", "wss", "wt":
		return true
	}
	return false
}

// firstAnswer dials the addresses the dns step found, in order, on port
// and returns the first connection made, or the first error. Each address
// gets an equal share of the time left, as net.Dialer gives a name's.
func firstAnswer[C any](ctx context.Context, addrs []string, port string, dial func(ctx context.Context, addr string) (C, error)) (C, error) {
	var first error
	for i, a := range addrs {
		actx, cancel := ctx, context.CancelFunc(func() {})
		if end, ok := ctx.Deadline(); ok && i < len(addrs)-1 {
			actx, cancel = context.WithDeadline(ctx, time.Now().Add(time.Until(end)/time.Duration(len(addrs)-i)))
		}
		c, err := dial(actx, net.JoinHostPort(a, port))
		cancel()
		if err == nil {
			return c, nil
		}
		if first == nil {
			first = err
		}
	}
	var none C
	if first == nil {
		first = errors.New("no address to dial")
	}
	return none, first
}

// tcpTLS checks that the TCP port accepts a connection and, for https and
// wss, the TLS handshake and the certificate. It returns the connection,
// for the HTTP step to send its probe on, or nil when a step failed.
func (w *walk) tcpTLS(addrs []string) net.Conn {
	var conn net.Conn
	w.step("tcp", func(ctx context.Context) (string, error) {
		var d net.Dialer
		c, err := firstAnswer(ctx, addrs, w.port(), func(ctx context.Context, addr string) (net.Conn, error) {
			return d.DialContext(ctx, "tcp", addr)
		})
		if err != nil {
			if errors.Is(err, syscall.ECONNREFUSED) {
				return "", fail(checklist.Connection, "start the server, or check the port in the URL", "nothing listens on %s: %w", w.hostPort(), err)
			}
			return "", fmt.Errorf("connecting to %s: %w", w.hostPort(), err)
		}
		conn = c
		return "connected to " + c.RemoteAddr().String(), nil
	})
	if conn == nil {
		w.skip("tls", "")
		return nil
	}
	if !w.secure() {
		w.skip("tls", "plain "+w.cfg.URL.Scheme+"://, no TLS")
		return conn
	}
	tc := tls.Client(conn, &tls.Config{ServerName: w.cfg.URL.Hostname(), InsecureSkipVerify: true, MinVersion: tls.VersionTLS12})
	if !w.step("tls", func(ctx context.Context) (string, error) { return w.checkTLS(ctx, tc) }) {
		_ = conn.Close()
		return nil
	}
	return tc
}
