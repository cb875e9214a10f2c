package doctor

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"
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
			return nil, fail(Connection, "check the host name in the URL (a typo, or a name only another network knows)", "the name %s does not resolve: %w", host, err)
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

// hostPort is the URL's address with the scheme's default port.
func (w *walk) hostPort() string {
	u := w.cfg.URL
	port := u.Port()
	if port == "" {
		port = "80"
		switch strings.ToLower(u.Scheme) {
		case "https", "wss", "wt":
			port = "443"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// secure reports whether the URL asks for TLS.
func (w *walk) secure() bool {
	switch strings.ToLower(w.cfg.URL.Scheme) {
	case "https", "wss", "wt":
		return true
	}
	return false
}

// tcpTLS checks that the TCP port accepts a connection and, for https and
// wss, the TLS handshake and the certificate.
func (w *walk) tcpTLS(addrs []string) {
	var conn net.Conn
	w.step("tcp", func(ctx context.Context) (string, error) {
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp", w.hostPort())
		if err != nil {
			if errors.Is(err, syscall.ECONNREFUSED) {
				return "", fail(Connection, "start the server, or check the port in the URL", "nothing listens on %s: %w", w.hostPort(), err)
			}
			return "", fmt.Errorf("connecting to %s: %w", w.hostPort(), err)
		}
		conn = c
		return "connected to " + c.RemoteAddr().String(), nil
	})
	if conn == nil {
		w.skip("tls", "")
		return
	}
	defer conn.Close()
	if !w.secure() {
		w.skip("tls", "plain "+w.cfg.URL.Scheme+"://, no TLS")
		return
	}
	w.step("tls", func(ctx context.Context) (string, error) {
		return w.checkTLS(ctx, conn)
	})
}
