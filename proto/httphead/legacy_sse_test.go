package httphead

import (
	"net/url"
	"strings"
	"testing"
)

// TestLegacyEndpoint: an endpoint event's relative or absolute URL is
// resolved against the stream's; another origin, or no URL, is refused.
func TestLegacyEndpoint(t *testing.T) {
	stream, _ := url.Parse("http://127.0.0.1:8080/sse")
	for data, want := range map[string]string{
		"/message?sessionId=1":            "http://127.0.0.1:8080/message?sessionId=1",
		" message?sessionId=2\n":          "http://127.0.0.1:8080/message?sessionId=2",
		"http://127.0.0.1:8080/api/m?x=1": "http://127.0.0.1:8080/api/m?x=1",
		"http://127.0.0.1:9090/message":   "another origin",
		"https://127.0.0.1:8080/message":  "another origin",
		"http://[::1:8080/message":        "is not a URL",
	} {
		u, err := LegacyEndpoint(stream, data)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = u.String()
		}
		if !strings.Contains(got, want) {
			t.Errorf("%q → %q, want %q", data, got, want)
		}
	}
	for status, want := range map[int]bool{400: true, 404: true, 405: true, 401: false, 403: false, 500: false, 200: false} {
		if LegacyFallbackStatus(status) != want {
			t.Errorf("LegacyFallbackStatus(%d) = %v", status, !want)
		}
	}
}
