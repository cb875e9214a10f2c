package httprelay

import (
	"errors"
	"fmt"
	"net/url"

	"github.com/mcpscope/mcpscope/internal/app/tlsconf"
	"github.com/mcpscope/mcpscope/proto/httphead"
)

// unreachable says why the server at u could not be reached: a
// certificate it cannot trust in the words that say how to trust it,
// another failure as it came. The URL is shown as a capture shows it
// (httphead.RedactURL), and the one the client's *url.Error quotes, which
// keeps the query's tokens, is left out.
func unreachable(u *url.URL, err error) error {
	if cert := tlsconf.Failure(err); cert != nil {
		err = cert
	} else {
		err = withoutURL(err)
	}
	return &unreachableError{why: fmt.Sprintf("the server at %s cannot be reached: %v", httphead.RedactURL(u), err), err: err}
}

// unreachableError is a failure to reach the server, in words that hold
// no credential.
type unreachableError struct {
	why string
	err error
}

func (e *unreachableError) Error() string { return e.why }
func (e *unreachableError) Unwrap() error { return e.err }

// withoutURL is err less the URL a client's *url.Error quotes: the query
// of a request may carry a token.
func withoutURL(err error) error {
	if ue, ok := errors.AsType[*url.Error](err); ok {
		return ue.Err
	}
	return err
}
