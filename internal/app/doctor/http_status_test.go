package doctor

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/checklist"
)

// The http step words what an answer's status and encoding say: a
// Content-Encoding mcpscope did not ask for by its name, a transient
// status as transient, a status HTTP does not define as such, and
// another 5xx as the server failing, never as transient.
func TestHTTPStepWordsStatusAndEncoding(t *testing.T) {
	for _, c := range []struct {
		status   int
		encoding string
		says     string
		class    checklist.Class
	}{
		{http.StatusOK, "gzip", "the answer is Content-Encoding: gzip, which mcpscope did not ask for", checklist.Protocol},
		{999, "", "999 status code 999 is not a status HTTP defines", checklist.Protocol},
		{http.StatusServiceUnavailable, "", "503 Service Unavailable (transient", checklist.Connection},
		{http.StatusTooManyRequests, "", "429 Too Many Requests (transient", checklist.Connection},
		{http.StatusInternalServerError, "", "500 Internal Server Error", checklist.Connection},
	} {
		t.Run(strconv.Itoa(c.status)+c.encoding, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if c.encoding != "" {
					w.Header().Set("Content-Encoding", c.encoding)
				}
				w.WriteHeader(c.status)
				_, _ = w.Write([]byte("\x1f\x8b\x08\x00"))
			}))
			t.Cleanup(srv.Close)
			r := walkURL(t, srv.URL+"/mcp", Config{})
			f := r.Failure()
			if f == nil || f.Step != "http" || f.Class != c.class || !strings.Contains(f.Detail, c.says) {
				t.Fatalf("failure %+v, want the http step to say %q:\n%s", f, c.says, render(t, r))
			}
			if c.status == http.StatusInternalServerError && strings.Contains(f.Detail, "transient") {
				t.Errorf("a 500 is worded transient: %s", f.Detail)
			}
		})
	}
}
