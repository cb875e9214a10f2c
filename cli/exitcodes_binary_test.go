package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// silentTCP listens on a port of its own on 127.0.0.1, takes every
// connection and never says a word (no HTTP answer, no TLS handshake, no
// WebSocket upgrade); it returns host:port.
func silentTCP(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return l.Addr().String()
}

// silentUDP reads every datagram sent to a port of its own on 127.0.0.1
// and answers none (a QUIC handshake never starts); it returns host:port.
func silentUDP(t *testing.T) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 64<<10)
		for {
			if _, _, err := pc.ReadFrom(buf); err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { pc.Close(); <-done })
	return pc.LocalAddr().String()
}

// wrongIDServer is a legacy Streamable HTTP server that answers tools/list
// with id 999, which nobody sent, as a JSON body or (sse) as the one
// event of an answer stream; it returns the MCP endpoint's URL.
func wrongIDServer(t *testing.T, sse bool) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || json.Unmarshal(body, &m) != nil {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var answer string
		switch m.Method {
		case "":
			w.WriteHeader(http.StatusAccepted)
			return
		case "server/discover":
			answer = fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, m.ID)
		case "initialize":
			answer = fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"wrong-id","version":"1"}}}`,
				m.ID, m.Params.ProtocolVersion)
		default:
			answer = `{"jsonrpc":"2.0","id":999,"result":{"tools":[]}}`
			if sse {
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprintf(w, "event: message\ndata: %s\n\n", answer)
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, answer)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// TestExitCodesOfTheBinary runs the mcpscope command (and its doctor)
// against servers that let a time limit run out at each stage of
// connecting, on each transport, and against one that answers with an id
// nobody sent: every timeout exits 4, the wrong id 5, each with its
// reason on stderr.
func TestExitCodesOfTheBinary(t *testing.T) {
	bin := builtBinary(t)
	cases := []struct {
		name   string
		args   func(t *testing.T) []string
		code   int
		stderr string
	}{
		{"http: initialize unanswered", func(t *testing.T) []string {
			return []string{"tools", "--timeout", "1s", "http://" + silentTCP(t) + "/mcp"}
		}, ExitTimeout, "timed out after 1s"},
		{"gateway: WebSocket upgrade unanswered, --timeout", func(t *testing.T) []string {
			return []string{"stream", "--timeout", "1s", "--transport", "gateway", "echo", "ws://" + silentTCP(t) + "/gw"}
		}, ExitTimeout, "the WebSocket upgrade"},
		{"gateway: WebSocket upgrade unanswered, --max-time", func(t *testing.T) []string {
			return []string{"stream", "--max-time", "1s", "--transport", "gateway", "echo", "ws://" + silentTCP(t) + "/gw"}
		}, ExitTimeout, "the WebSocket upgrade"},
		{"ws: TLS handshake unanswered", func(t *testing.T) []string {
			return []string{"tools", "--timeout", "1s", "--insecure", "wss://" + silentTCP(t) + "/mcp"}
		}, ExitTimeout, "got no answer within 1s"},
		{"wt: QUIC handshake unanswered", func(t *testing.T) []string {
			return []string{"tools", "--timeout", "1s", "--insecure", "wt://" + silentUDP(t) + "/mcp"}
		}, ExitTimeout, "no answer over QUIC"},
		{"doctor: TLS handshake unanswered", func(t *testing.T) []string {
			return []string{"doctor", "--timeout", "1s", "--insecure", "wss://" + silentTCP(t) + "/mcp"}
		}, ExitTimeout, "tls failed"},
		{"doctor: QUIC handshake unanswered", func(t *testing.T) []string {
			return []string{"doctor", "--timeout", "1s", "--insecure", "wt://" + silentUDP(t) + "/mcp"}
		}, ExitTimeout, "quic failed"},
		{"http: JSON answer with an id nobody sent", func(t *testing.T) []string {
			return []string{"tools", "--timeout", "10s", wrongIDServer(t, false)}
		}, ExitProtocol, "protocol violation: tools/list (id 3) was answered with id 999, which mcpscope never sent"},
		{"http: answer stream with an id nobody sent", func(t *testing.T) []string {
			return []string{"tools", "--timeout", "10s", wrongIDServer(t, true)}
		}, ExitProtocol, "protocol violation: tools/list (id 3) was answered with id 999, which mcpscope never sent"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, tc.args(t)...)
			cmd.Env = append(cmd.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "MCPSCOPE_KEYRING=off")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			code := 0
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code || !strings.Contains(stderr.String(), tc.stderr) {
				t.Fatalf("exit %d, want %d with %q on stderr:\n%s", code, tc.code, tc.stderr, stderr.String())
			}
		})
	}
}
