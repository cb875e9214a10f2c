package httphead

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// The legacy HTTP+SSE transport (2024-11-05) as a client of a later
// revision meets it: the backwards compatibility of 2025-03-26 and after
// has a client whose first POST is refused try the legacy stream, and the
// stream's endpoint event names where to POST.

// LegacyFallbackStatus reports whether a first POST refused with status,
// and no JSON-RPC answer, sends a client to the legacy HTTP+SSE
// transport: 400, 404 or 405.
func LegacyFallbackStatus(status int) bool {
	switch status {
	case http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed:
		return true
	}
	return false
}

// LegacyEndpoint resolves the data of a legacy stream's endpoint event, a
// relative or an absolute URL, against the stream's URL. An endpoint on
// another origin is refused: a client's headers and credentials go only
// where its user pointed it.
func LegacyEndpoint(stream *url.URL, data string) (*url.URL, error) {
	u, err := stream.Parse(strings.TrimSpace(data))
	if err != nil {
		return nil, fmt.Errorf("the endpoint event %q is not a URL: %w", data, err)
	}
	if u.Scheme != stream.Scheme || u.Host != stream.Host {
		return nil, fmt.Errorf("the endpoint event names %s, another origin than %s://%s: refused", u.Redacted(), stream.Scheme, stream.Host)
	}
	return u, nil
}
