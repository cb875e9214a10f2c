package cli

import (
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/rawtcp"
)

// A URL that refuses POST with 405 falls back to the legacy HTTP+SSE
// transport; when that stream never names its endpoint, the run ends
// within --timeout, exits 4 and says so, not the 405 that led there.
func TestStartLimitsEndAnAutomaticFallback(t *testing.T) {
	t.Parallel()
	const sseHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"
	for name, stream := range map[string]string{
		"silent":   "",
		"comments": sseHead + ": keep\n\n: alive\n\n",
		"messages": sseHead + "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"hi\"}}\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := rawtcp.Serve(t, func(_ int, c net.Conn) {
				req := rawtcp.ReadRequest(c)
				switch {
				case req == nil:
					return
				case req.Method == http.MethodPost:
					_, _ = c.Write([]byte("HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
					return
				case stream != "":
					_, _ = c.Write([]byte(stream))
				}
				rawtcp.Hold(c)
			})
			r := mcpscope(t, "tools", "--timeout", "1s", "http://"+srv.Addr()+"/mcp")
			r.mustExit(t, ExitTimeout)
			if want := "the legacy SSE stream of GET http://" + srv.Addr() + "/mcp sent no endpoint event within 1s"; !strings.Contains(r.stderr, want) {
				t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
			}
		})
	}
}
