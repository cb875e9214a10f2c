package webtransport

import (
	"net/http"
	"strings"
	"testing"
)

// The captured CONNECT request shows the headers in key order with the
// credentials redacted, unless NoRedact asks to see them.
func TestConnectHeadRedactsCredentials(t *testing.T) {
	hdr := http.Header{"Authorization": {"Bearer tok-123"}, "X-Trace": {"1"}}
	tr := &Transport{}
	text := requestText("https://h/mcp", tr.headerLines(hdr))
	if strings.Contains(text, "tok-123") || !strings.Contains(text, "Authorization: Bearer [redacted 7 bytes]\r\nX-Trace: 1\r\n") {
		t.Errorf("redacted head:\n%s", text)
	}
	tr.cfg.NoRedact = true
	if text := requestText("https://h/mcp", tr.headerLines(hdr)); !strings.Contains(text, "Authorization: Bearer tok-123\r\n") {
		t.Errorf("NoRedact head:\n%s", text)
	}
}
