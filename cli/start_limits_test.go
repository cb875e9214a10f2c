package cli

import (
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/rawtcp"
)

// Servers that accept TCP and never let the transport come up: the run
// ends within --timeout (or --max-time), exits 4 and names what was
// missing.

// holdAfter answers each connection with head (nothing when empty) and
// holds it.
func holdAfter(head string) func(int, net.Conn) {
	return func(_ int, c net.Conn) {
		if rawtcp.ReadRequest(c) != nil && head != "" {
			_, _ = c.Write([]byte(head))
		}
		rawtcp.Hold(c)
	}
}

func TestStartLimitsEndTheWait(t *testing.T) {
	t.Parallel()
	const (
		sseHead  = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"
		upgrade  = "got no answer within 1s"
		endpoint = "sent no endpoint event within 1s"
	)
	for _, c := range []struct {
		name, transport, scheme, head, want string
		limit                               []string
	}{
		{"ws silent", "ws", "ws", "", upgrade, nil},
		{"ws half 101", "ws", "ws", "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n", upgrade, nil},
		{"tools-ws silent", "tools-ws", "ws", "", upgrade, nil},
		{"gateway silent", "gateway", "ws", "", upgrade, nil},
		{"ws max time", "ws", "ws", "", "got no answer within its max time of 1s", []string{"--timeout", "1m", "--max-time", "1s"}},
		{"sse silent", "sse", "http", "", endpoint, nil},
		{"sse comments", "sse", "http", sseHead + ": keep\n\n: alive\n\n", endpoint, nil},
		{"sse messages", "sse", "http", sseHead + "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"hi\"}}\n\n", endpoint, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := rawtcp.Serve(t, holdAfter(c.head))
			limit := c.limit
			if limit == nil {
				limit = []string{"--timeout", "1s"}
			}
			args := append([]string{"tools", "--transport", c.transport}, limit...)
			r := mcpscope(t, append(args, c.scheme+"://"+srv.Addr()+"/mcp")...)
			r.mustExit(t, ExitTimeout)
			if !strings.Contains(r.stderr, c.want) {
				t.Errorf("stderr does not say %q:\n%s", c.want, r.stderr)
			}
		})
	}
}

func TestStartLimitsEndAStalledAuthorization(t *testing.T) {
	t.Parallel()
	srv := rawtcp.Serve(t, func(n int, c net.Conn) {
		// The upgrade is answered 401; the resource metadata it names
		// never is.
		if rawtcp.ReadRequest(c) != nil && n == 0 {
			_, _ = fmt.Fprintf(c, "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer resource_metadata=\"http://%s/meta\"\r\nContent-Length: 0\r\n\r\n", c.LocalAddr())
		}
		rawtcp.Hold(c)
	})
	r := mcpscope(t, "tools", "--timeout", "1s", "ws://"+srv.Addr()+"/mcp")
	r.mustExit(t, ExitTimeout)
	if want := "was answered 401 Unauthorized, and the authorization that followed did not end within 1s"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
	}
}

// mcpscope stream dials the gateway without a session, within the same
// limits, and says the same.
func TestStartLimitsEndTheStreamsUpgrade(t *testing.T) {
	t.Parallel()
	srv := rawtcp.Serve(t, holdAfter(""))
	r := mcpscope(t, "stream", "--timeout", "1s", "system_binary_streams_in", "ws://"+srv.Addr()+"/gateway")
	r.mustExit(t, ExitTimeout)
	if want := "got no answer within 1s"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
	}
}
