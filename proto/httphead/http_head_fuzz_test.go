package httphead

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/internal/prototest"
)

// FuzzHTTPHead renders heads of any text: each has exactly its lines, no
// CR or LF outside their line ends, and annotations covering every byte;
// redaction leaves only the scheme and the size of a credential.
func FuzzHTTPHead(f *testing.F) {
	f.Add("POST", "/mcp", "Authorization", "Bearer abc", 200)
	f.Add("GET", "/a\r\nb", "X-Api-Key", "k\n", 404)
	f.Add("", "", "", "", -1)
	f.Add("M\x00", "\r", "Cookie", "a=b; Bearer x", 599)
	f.Fuzz(func(t *testing.T, method, target, name, value string, status int) {
		headers := []HTTPHeader{{name, value}, {"Content-Type", "text/event-stream"}}
		req, reqFields := HTTPRequestHead(method, target, headers)
		resp, respFields := HTTPResponseHead("HTTP/1.1", status, headers)
		for _, head := range []struct {
			b      []byte
			fields []proto.Field
		}{{req, reqFields}, {resp, respFields}} {
			prototest.CheckFieldsCover(t, head.fields, len(head.b))
			s := string(head.b)
			lines := 1 + len(headers) + 1
			if strings.Count(s, "\r\n") != lines || strings.Count(s, "\r") != lines || strings.Count(s, "\n") != lines || !strings.HasSuffix(s, "\r\n\r\n") {
				t.Fatalf("head %q is not %d lines", s, lines)
			}
		}
		red := RedactHeaders(headers)
		if !SecretHeader(name) {
			if red[0] != headers[0] {
				t.Fatalf("%q is no secret, but its value became %q", name, red[0].Value)
			}
			return
		}
		scheme, rest, _ := strings.Cut(red[0].Value, "[redacted ")
		if !strings.HasPrefix(value, scheme) || rest != proto.ByteCount(len(value)-len(scheme))+"]" {
			t.Fatalf("%s: %q redacted as %q", name, value, red[0].Value)
		}
		if strings.Contains(scheme, "[") || len(scheme) > 0 && !strings.HasSuffix(scheme, " ") {
			t.Fatalf("%s: kept %q of %q", name, scheme, value)
		}
	})
}
