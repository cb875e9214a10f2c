package oauth

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// origin is the scheme, host and port of u (RFC 6454), the port spelt
// out: a token is sent only where its origin is the resource's.
func origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	switch scheme {
	case "ws":
		scheme = "http"
	case "wss":
		scheme = "https"
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	return scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// ForeignOriginError says a request left the origin the OAuth token was
// issued for (a redirect) and was refused there: the token is not sent
// to that origin, nor is an authorization run there.
type ForeignOriginError struct {
	// Resource is the URL the token was issued for.
	Resource string
	// URL is where the request went, its credentials redacted.
	URL string
	// Redirect is the status of the redirect that sent it there; 0 when
	// none is known.
	Redirect int
	// Status is the foreign origin's answer.
	Status string
}

func (e *ForeignOriginError) Error() string {
	how := "the request went"
	if e.Redirect != 0 {
		how = fmt.Sprintf("the server redirected the request (%d)", e.Redirect)
	}
	return fmt.Sprintf("%s to %s, another origin than %s, whose OAuth token it is, and was refused there (%s): the token is not sent to another origin, nor is an authorization run there; use that URL as the target to authorize there",
		how, e.URL, e.Resource, e.Status)
}

// foreign returns a *ForeignOriginError when req, refused with rsp, is
// not at the resource's origin, else nil.
func (f *Flow) foreign(req *http.Request, rsp *http.Response) error {
	if origin(req.URL) == f.origin {
		return nil
	}
	e := &ForeignOriginError{Resource: f.cfg.Resource, URL: req.URL.Redacted(), Status: rsp.Status}
	if req.Response != nil {
		e.Redirect = req.Response.StatusCode
	}
	return e
}

// errRedirectElsewhere says a request of the flow's own (a token, a
// registration) was redirected to another origin, which would carry its
// credentials there: it is not followed.
var errRedirectElsewhere = errors.New("redirected to another origin, which would carry the request's credentials there: not followed")

// maxRedirects bounds the redirects of a request of the flow's own.
const maxRedirects = 4

// checkRedirect is the flow's own client's redirect policy: a request is
// followed only within its origin, at most maxRedirects times.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if origin(req.URL) != origin(via[0].URL) {
		return fmt.Errorf("%s %s was %w (to %s)", via[0].Method, via[0].URL.Redacted(), errRedirectElsewhere, req.URL.Redacted())
	}
	if len(via) > maxRedirects {
		return fmt.Errorf("%s %s: stopped after %d redirects", via[0].Method, via[0].URL.Redacted(), maxRedirects)
	}
	return nil
}
