package httphead

import (
	"bufio"
	"bytes"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/internal/prototest"
)

// requestHead renders a request head, checks it is want and that its
// fields cover it, and returns both.
func requestHead(t *testing.T, method, target string, headers []HTTPHeader, want string) ([]byte, []proto.Field) {
	t.Helper()
	head, fields := HTTPRequestHead(method, target, headers)
	if string(head) != want {
		t.Fatalf("head %q\nwant %q", head, want)
	}
	prototest.CheckFieldsCover(t, fields, len(head))
	return head, fields
}

func TestHTTPRequestHead(t *testing.T) {
	head, fields := requestHead(t, "POST", "/mcp", []HTTPHeader{
		{"Accept", "application/json, text/event-stream"},
		{"Mcp-Session-Id", "abc"},
	}, "POST /mcp HTTP/1.1\r\n"+
		"Accept: application/json, text/event-stream\r\n"+
		"Mcp-Session-Id: abc\r\n"+
		"\r\n")
	wantFields := []proto.Field{
		hdr(0, 5, "method", "POST"), hdr(5, 5, "target", "/mcp"), hdr(10, 10, "version", "HTTP/1.1"),
		hdr(20, 45, "Accept", "application/json, text/event-stream"),
		hdr(65, 21, "Mcp-Session-Id", "abc"),
		delim(86, 2, "end of head", "CR LF"),
	}
	if !reflect.DeepEqual(fields, wantFields) {
		t.Fatalf("fields\n got %+v\nwant %+v", fields, wantFields)
	}
	req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(head)))
	if err != nil || req.Method != "POST" || req.RequestURI != "/mcp" || req.Header.Get("Mcp-Session-Id") != "abc" {
		t.Fatalf("net/http reads the head back as %+v, %v", req, err)
	}
}

func TestHTTPResponseHead(t *testing.T) {
	tests := []struct {
		proto  string
		status int
		line   string
		value  string
	}{
		{"HTTP/1.1", 200, "HTTP/1.1 200 OK\r\n", "200 OK"},
		{"HTTP/2.0", 404, "HTTP/2.0 404 Not Found\r\n", "404 Not Found"},
		{"HTTP/1.1", 599, "HTTP/1.1 599\r\n", "599"},
	}
	for _, tc := range tests {
		head, fields := HTTPResponseHead(tc.proto, tc.status, []HTTPHeader{{"Content-Type", "text/event-stream"}})
		want := tc.line + "Content-Type: text/event-stream\r\n\r\n"
		if string(head) != want {
			t.Fatalf("head %q, want %q", head, want)
		}
		prototest.CheckFieldsCover(t, fields, len(head))
		if fields[0].Name != "version" || fields[0].Value != tc.proto || fields[1].Name != "status" || fields[1].Value != tc.value ||
			fields[2].Name != "Content-Type" || fields[2].Value != "text/event-stream" || fields[3].Kind != proto.FieldDelimiter {
			t.Fatalf("fields %+v", fields)
		}
	}
}

// TestHTTPHeadNoForgedLine: a CR or LF in a value, a name or the target
// does not start a line of its own.
func TestHTTPHeadNoForgedLine(t *testing.T) {
	_, fields := requestHead(t, "GET", "/a\r\nX-Evil: 1", []HTTPHeader{
		{"X-Note", "a\r\nSet-Cookie: stolen\x00"},
		{"X-Bad\nName", "v"},
	}, "GET /a  X-Evil: 1 HTTP/1.1\r\n"+
		"X-Note: a  Set-Cookie: stolen \r\n"+
		"X-Bad Name: v\r\n"+
		"\r\n")
	if fields[3].Name != "X-Note" || fields[3].Value != "a  Set-Cookie: stolen " || fields[4].Name != "X-Bad Name" {
		t.Fatalf("fields %+v", fields)
	}
	resp, _ := HTTPResponseHead("HTTP/1.1\r\n", 200, []HTTPHeader{{"A", "\r"}})
	if n := strings.Count(string(resp), "\r\n"); n != 3 || strings.Count(string(resp), "\r") != 3 {
		t.Fatalf("response head %q has forged lines", resp)
	}
}

func TestHTTPHeadInvalidUTF8Kept(t *testing.T) {
	requestHead(t, "GET", "/", []HTTPHeader{{"X", "\xff\xfe\r"}}, "GET / HTTP/1.1\r\nX: \xff\xfe \r\n\r\n")
}

func TestHeadersOf(t *testing.T) {
	h := http.Header{
		"Content-Type":         {"application/json"},
		"Accept":               {"application/json", "text/event-stream"},
		"MCP-Protocol-Version": {"2025-11-25"},
		"mcp-method":           {"tools/call"},
		"Mcp-Method":           {"ping"},
	}
	want := []HTTPHeader{
		{"Accept", "application/json"}, {"Accept", "text/event-stream"},
		{"Content-Type", "application/json"},
		{"Mcp-Method", "ping"}, {"mcp-method", "tools/call"},
		{"MCP-Protocol-Version", "2025-11-25"},
	}
	for range 20 { // map order varies between runs: the result must not
		if got := HeadersOf(h); !reflect.DeepEqual(got, want) {
			t.Fatalf("HeadersOf\n got %v\nwant %v", got, want)
		}
	}
	if got := HeadersOf(nil); len(got) != 0 {
		t.Fatalf("HeadersOf(nil) = %v", got)
	}
}

func TestSecretHeader(t *testing.T) {
	secret := []string{"Authorization", "authorization", "PROXY-AUTHORIZATION", "Cookie", "Set-Cookie",
		"X-Api-Key", "x-apikey", "Api_Key", "X-Auth-Token", "Client-Secret", "X-Password",
		"X-Api-\u212aey"} // a Kelvin sign lowers to k
	public := []string{"Mcp-Session-Id", "X-Session", "Content-Type", "Accept", "Mcp-Protocol-Version",
		"WWW-Authenticate", "Last-Event-ID", "Cookies-Policy-Url"} // only the Cookie header itself is secret
	for _, n := range secret {
		if !SecretHeader(n) {
			t.Errorf("SecretHeader(%q) = false", n)
		}
	}
	for _, n := range public {
		if SecretHeader(n) {
			t.Errorf("SecretHeader(%q) = true", n)
		}
	}
}

func TestRedactHeaders(t *testing.T) {
	in := []HTTPHeader{
		{"Authorization", "Bearer " + strings.Repeat("t", 43)},
		{"Proxy-Authorization", "Basic dXNlcjpwYXNz"},
		{"Authorization", "opaque-token-without-scheme"},
		{"Cookie", "sid=123; theme=dark"},
		{"X-Api-Key", "sk-123456789"},
		{"Mcp-Session-Id", "sess-1"},
		{"X-Api-Key", ""},
	}
	orig := slices.Clone(in)
	got := RedactHeaders(in)
	want := []HTTPHeader{
		{"Authorization", "Bearer [redacted 43 bytes]"},
		{"Proxy-Authorization", "Basic [redacted 12 bytes]"},
		{"Authorization", "[redacted 27 bytes]"},
		{"Cookie", "[redacted 19 bytes]"},
		{"X-Api-Key", "[redacted 12 bytes]"},
		{"Mcp-Session-Id", "sess-1"},
		{"X-Api-Key", "[redacted 0 bytes]"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("RedactHeaders\n got %v\nwant %v", got, want)
	}
	if !reflect.DeepEqual(in, orig) {
		t.Fatalf("RedactHeaders changed its input: %v", in)
	}
	if RedactHeaders(nil) != nil {
		t.Fatalf("RedactHeaders(nil) is not nil")
	}
}

func TestCapturedHeaders(t *testing.T) {
	h := http.Header{"Authorization": {"Bearer abc"}, "Accept": {"x"}}
	if got := CapturedHeaders(h, false); got[1].Value != "Bearer [redacted 3 bytes]" || got[0].Value != "x" {
		t.Errorf("redacted: %+v", got)
	}
	if got := CapturedHeaders(h, true); got[1].Value != "Bearer abc" {
		t.Errorf("kept: %+v", got)
	}
}

func TestRedactQuery(t *testing.T) {
	for in, want := range map[string]string{
		"/mcp":                              "/mcp",
		"/mcp?a=1":                          "/mcp?a=1",
		"/ws?access_token=abc.def&room=7":   "/ws?access_token=[redacted-7-bytes]&room=7",
		"/ws?api%5Fkey=s3cret&Token=x&key=": "/ws?api%5Fkey=[redacted-6-bytes]&Token=[redacted-1-bytes]&key=",
		"/ws?sessionid=abc":                 "/ws?sessionid=abc",
	} {
		if got := RedactQuery(in); got != want {
			t.Errorf("RedactQuery(%q) = %q, want %q", in, got, want)
		}
	}
}

// RedactURL masks a URL's password and secret query values as a capture
// shows them, and QueryMasked finds, whole, the masks it wrote.
func TestRedactURLAndQueryMasked(t *testing.T) {
	u, _ := url.Parse("https://u:pw-SEKRET@h/mcp?key=SEKRET1&x=1&sig=SEKRET2")
	got := RedactURL(u)
	if strings.Contains(got, "SEKRET") || !strings.Contains(got, "&x=1&") {
		t.Errorf("RedactURL = %q", got)
	}
	for in, want := range map[string]int{"[redacted-7-bytes]&x=1": 18, "[redacted-7-bytes": 0, "[redacted-8-bytes]": 18, "[redacted-x-bytes]": 0, "SEKRET": 0} {
		if n := QueryMasked([]byte(in)); n != want {
			t.Errorf("QueryMasked(%q) = %d, want %d", in, n, want)
		}
	}
}
