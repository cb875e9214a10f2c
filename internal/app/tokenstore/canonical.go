package tokenstore

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// defaultPorts are the ports a canonical URI leaves out, by scheme.
var defaultPorts = map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443"}

// Canonical returns the MCP canonical server URI of raw: the resource
// identifier of RFC 8707 section 2 that the MCP authorization spec
// (2025-11-25, "Canonical Server URI") sends as the resource parameter.
// It must be an absolute URI with a host; the scheme and host come back
// in lower case, a default port (80 for http and ws, 443 for https and
// wss) is dropped, the fragment is dropped and trailing slashes of the
// path are removed. The query is kept as it is: the spec allows one
// "when necessary for MCP server identification", and dropping it could
// give two servers one canonical URI and so one token. User information
// (user:password@) is refused. Errors never repeat raw, which may carry
// a password.
func Canonical(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the url.Error repeats raw
		}
		return "", fmt.Errorf("resource URI: %w", err)
	}
	switch {
	case u.Scheme == "":
		return "", errors.New("resource URI: no scheme (want one like https://host/path)")
	case u.Opaque != "" || u.Host == "":
		return "", errors.New("resource URI: no host (want one like https://host/path)")
	case u.User != nil:
		return "", errors.New("resource URI: user information (user@ or user:password@) is not part of a server's URI")
	}
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Host)
	host = strings.TrimSuffix(host, ":") // an empty port is the default one
	if p, ok := defaultPorts[scheme]; ok {
		host = strings.TrimSuffix(host, ":"+p)
	}
	if host == "" || strings.HasPrefix(host, ":") {
		return "", errors.New("resource URI: no host (want one like https://host/path)")
	}
	c := url.URL{Scheme: scheme, Host: host, Path: u.Path, RawPath: u.RawPath, RawQuery: u.RawQuery}
	c.Path = strings.TrimRight(c.Path, "/")
	c.RawPath = strings.TrimRight(c.RawPath, "/")
	return c.String(), nil
}
