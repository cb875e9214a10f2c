package httphead

import (
	"bytes"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// secretNameParts are parts of a header name that mark a credential, in
// lower case ("X-Api-Key", "X-Auth-Token", "Client-Secret"). A session id
// is not one: Mcp-Session-Id stays visible.
var secretNameParts = [][]byte{[]byte("token"), []byte("secret"), []byte("api-key"), []byte("apikey"), []byte("api_key"), []byte("password")}

// SecretHeader reports whether a header carries a credential:
// Authorization, Proxy-Authorization, Cookie, Set-Cookie, and any name that
// contains "token", "secret", "api-key", "apikey", "api_key" or "password".
// Names compare without regard to case.
func SecretHeader(name string) bool {
	var buf [64]byte // a header name is lowered here, not on the heap, for each line captured
	n := buf[:0]
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= utf8.RuneSelf { // lowered by Unicode's rules: the Kelvin sign is a k
			n = []byte(strings.ToLower(name))
			break
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		n = append(n, c)
	}
	switch string(n) {
	case "authorization", "proxy-authorization", "cookie", "set-cookie":
		return true
	}
	for _, part := range secretNameParts {
		if bytes.Contains(n, part) {
			return true
		}
	}
	return false
}

// RedactHeaders returns a copy of h in which the value of each secret
// header (see SecretHeader) is replaced by "[redacted N bytes]". An
// Authorization or Proxy-Authorization value keeps its scheme:
// "Bearer [redacted 43 bytes]". Other headers are copied as they are.
func RedactHeaders(h []HTTPHeader) []HTTPHeader {
	if h == nil {
		return nil
	}
	return redactInPlace(slices.Clone(h))
}

// redactInPlace redacts the secret headers of h as RedactHeaders does, in
// h itself, and returns it.
func redactInPlace(h []HTTPHeader) []HTTPHeader {
	for i, hd := range h {
		if SecretHeader(hd.Name) {
			h[i].Value = redacted(hd.Name, hd.Value)
		}
	}
	return h
}

// redacted is value with its credential replaced by its size; the
// authentication scheme of an Authorization value stays (RFC 9110 §11.4:
// credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]).
func redacted(name, value string) string {
	scheme := ""
	if strings.EqualFold(name, "authorization") || strings.EqualFold(name, "proxy-authorization") {
		if sp := strings.IndexByte(value, ' '); sp > 0 && isToken(value[:sp]) {
			scheme, value = value[:sp+1], value[sp+1:]
		}
	}
	var buf [64]byte
	b := append(append(buf[:0], scheme...), "[redacted "...)
	if len(value) == 1 {
		b = append(b, "1 byte"...) // as ByteCount words it
	} else {
		b = append(strconv.AppendInt(b, int64(len(value)), 10), " bytes"...)
	}
	return string(append(b, ']'))
}

// isToken reports whether s is an HTTP token (RFC 9110 §5.6.2): one or more
// tchar.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !alnum && !strings.ContainsRune("!#$%&'*+-.^_`|~", rune(c)) {
			return false
		}
	}
	return true
}

// CapturedHeaders is how a transport shows h in its capture: HeadersOf,
// with the secret headers redacted unless noRedact.
func CapturedHeaders(h http.Header, noRedact bool) []HTTPHeader {
	lines := HeadersOf(h)
	if noRedact {
		return lines
	}
	return redactInPlace(lines) // HeadersOf's lines are this call's own
}

// secretParams are query parameter names that carry a credential beside
// those SecretHeader recognises (a WebSocket client, which cannot set
// headers in a browser, often authenticates in the query).
var secretParams = []string{"key", "auth", "authorization", "sig", "signature", "code", "access_token", "session"}

// SecretParam reports whether a query parameter carries a credential.
func SecretParam(name string) bool {
	return SecretHeader(name) || slices.Contains(secretParams, strings.ToLower(name))
}

// RedactQuery returns a request target (path and query) whose secret
// query values (SecretParam) are replaced by "[redacted-N-bytes]"; the rest
// is kept byte for byte.
func RedactQuery(target string) string {
	path, query, ok := strings.Cut(target, "?")
	if !ok || query == "" {
		return target
	}
	parts := strings.Split(query, "&")
	changed := false
	for i, p := range parts {
		name, value, hasValue := strings.Cut(p, "=")
		if !hasValue || value == "" {
			continue
		}
		if n, err := url.QueryUnescape(name); err == nil && SecretParam(n) {
			parts[i] = name + "=" + queryMask(len(value))
			changed = true
		}
	}
	if !changed {
		return target
	}
	return path + "?" + strings.Join(parts, "&")
}

// queryMask is what RedactQuery writes for a value of n bytes.
func queryMask(n int) string { return "[redacted-" + strconv.Itoa(n) + "-bytes]" }

// QueryMasked is the length of the mask RedactQuery writes for a value
// ("[redacted-N-bytes]") at the start of b, or 0 when b does not start
// with one.
func QueryMasked(b []byte) int {
	rest, ok := bytes.CutPrefix(b, []byte("[redacted-"))
	if !ok {
		return 0
	}
	digits := 0
	for digits < len(rest) && digits < 19 && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	n, err := strconv.Atoi(string(rest[:digits]))
	if err != nil || !bytes.HasPrefix(b, []byte(queryMask(n))) {
		return 0
	}
	return len(queryMask(n))
}

// RedactURL is u as a capture shows it: its password and the values of
// its secret query parameters (SecretParam) masked.
func RedactURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	return RedactQuery(u.Redacted())
}
