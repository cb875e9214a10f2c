package httphead

import (
	"fmt"
	"net/http"
	"strings"
)

// TransientStatus reports whether an HTTP status says that the same
// request may succeed later: 408 Request Timeout, 429 Too Many Requests,
// 502 Bad Gateway, 503 Service Unavailable, 504 Gateway Timeout. Another
// 5xx is the server failing, and a status outside 100–599 is none HTTP
// defines (RFC 9110 §15).
func TransientStatus(code int) bool {
	switch code {
	case http.StatusRequestTimeout, http.StatusTooManyRequests,
		http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// UndefinedStatus reports whether code is outside the classes HTTP
// defines, 1xx to 5xx (RFC 9110 §15).
func UndefinedStatus(code int) bool { return code < 100 || code > 599 }

// UnaskedEncoding is why a body cannot be read as it is: it came with a
// Content-Encoding (gzip, br…) though mcpscope asks for none, to show
// every byte as sent. Nil when the body has none, or "identity".
func UnaskedEncoding(h http.Header) error {
	enc := strings.TrimSpace(strings.Join(h.Values("Content-Encoding"), ", "))
	if enc == "" || strings.EqualFold(enc, "identity") {
		return nil
	}
	return fmt.Errorf("the answer is Content-Encoding: %s, which mcpscope did not ask for", oneLine(enc))
}
