package mcphttp

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/mcpscope/mcpscope/transports/internal/netword"
)

// wordFailure says in one sentence why req got no response.
func (t *Transport) wordFailure(req *http.Request, err error) error {
	target := req.Method + " " + req.URL.Redacted()
	if errors.Is(err, errTooManyRedirects) {
		return fmt.Errorf("%s: %w", target, err)
	}
	return netword.Failure(target, req.URL.Host, err)
}
