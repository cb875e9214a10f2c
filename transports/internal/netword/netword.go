// Package netword words why a network transport got no answer, in one
// sentence a user can act on: the certificate that failed, a refused
// connection and where nothing listens, a host name that does not
// resolve, a wait abandoned.
package netword

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"syscall"

	"github.com/mcpscope/mcpscope/internal/app/tlsconf"
)

// Failure says why target (such as "POST https://host/mcp") got no
// answer from host (host:port); err is what the client returned.
func Failure(target, host string, err error) error {
	if cert := tlsconf.Failure(err); cert != nil {
		return cert
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s was abandoned: %w", target, err)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("%s: connection refused; is the server listening on %s? (%w)", target, host, refusal(err))
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return fmt.Errorf("%s: the host name does not resolve (%w)", target, dns)
	}
	return fmt.Errorf("%s: %w", target, err)
}

// refusal is the innermost error that still names the address refused:
// the *net.OpError when there is one, err otherwise.
func refusal(err error) error {
	var op *net.OpError
	if errors.As(err, &op) {
		return op
	}
	return err
}
