package oauth

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/bearer"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// FuzzChallenge: whatever a server puts in WWW-Authenticate, telling a
// refusal and wording it for the checklist never panics, and the wording
// reaches a terminal safely once the checklist sanitizes it.
func FuzzChallenge(f *testing.F) {
	for _, s := range []string{
		`Bearer resource_metadata="https://x/.well-known/oauth-protected-resource", scope="a b"`,
		`Bearer error="insufficient_scope", scope="admin"`,
		`Basic realm="x", Bearer error=invalid_token`,
		`Bearer error="\x1b[31m"`,
		`Bearer ,,,=""`,
	} {
		f.Add(s, 401)
		f.Add(s, 403)
	}
	f.Fuzz(func(t *testing.T, header string, status int) {
		rsp := &http.Response{StatusCode: status, Status: http.StatusText(status), Header: http.Header{"Www-Authenticate": {header}}}
		_ = bearer.Refusal(rsp)
		cs, _ := bearer.Challenges(rsp)
		if !termtext.Safe(termtext.Line(describeChallenge(rsp, cs))) {
			t.Fatal("the wording is not safe once sanitized")
		}
	})
}

// FuzzCallback: whatever the browser's redirect carries, the loopback
// listener takes it without panicking and hands on exactly what it got.
func FuzzCallback(f *testing.F) {
	f.Add("code=abc&state=xyz&iss=https%3A%2F%2Fas")
	f.Add("error=access_denied&error_description=%1B%5B2J")
	f.Add("state=&code=")
	f.Fuzz(func(t *testing.T, query string) {
		l := &loopback{got: make(chan callback, 1)}
		req := &http.Request{Method: http.MethodGet, URL: &url.URL{Path: callbackPath, RawQuery: query}, Header: http.Header{}}
		l.ServeHTTP(discardWriter{}, req)
		q, _ := url.ParseQuery(query)
		select {
		case cb := <-l.got:
			if cb.Code != q.Get("code") || cb.State != q.Get("state") {
				t.Fatalf("handed on %+v for %q", cb, query)
			}
		default:
		}
	})
}

// discardWriter is a ResponseWriter that keeps nothing.
type discardWriter struct{}

func (discardWriter) Header() http.Header         { return http.Header{} }
func (discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (discardWriter) WriteHeader(int)             {}
