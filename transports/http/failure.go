package mcphttp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"syscall"

	"github.com/mcpscope/mcpscope/transports/internal/tlsconf"
)

// wordFailure says in one sentence why req got no response.
func (t *Transport) wordFailure(req *http.Request, err error) error {
	if cert := tlsconf.Failure(err); cert != nil {
		return cert
	}
	target := req.Method + " " + req.URL.Redacted()
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s was abandoned: %w", target, err)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("%s: connection refused; is the server listening on %s? (%w)", target, req.URL.Host, err)
	case errors.Is(err, errTooManyRedirects):
		return fmt.Errorf("%s: %w", target, err)
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return fmt.Errorf("%s: the host name does not resolve (%w)", target, err)
	}
	return fmt.Errorf("%s: %w", target, err)
}
