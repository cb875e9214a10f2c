package httprelay

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proxy"
)

// bridged is a bridge a test runs in process, its host's stdin and stdout
// pipes of the test's own.
type bridged struct {
	stdin  io.WriteCloser
	stdout *bufio.Reader
	done   chan error
}

func startBridge(t *testing.T, upstream string, header http.Header) *bridged {
	t.Helper()
	sess, err := proxy.Open(proxy.Options{Name: "bridge", Target: upstream, Transport: "http",
		Record: filepath.Join(t.TempDir(), "bridge.jsonl"), Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	up, _ := ParseUpstream(upstream)
	client, _ := NewClient(up, TLS{})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	b, err := NewBridge(BridgeOptions{Session: sess, URL: up, Client: client, Header: header, Stdin: inR, Stdout: outW})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run)
	br := &bridged{stdin: inW, stdout: bufio.NewReader(outR), done: make(chan error, 1)}
	go func() {
		err := b.Run(ctx)
		outW.Close()
		br.done <- err
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		_ = sess.Close(nil)
	})
	return br
}

// send writes a line for the bridge.
func (b *bridged) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(b.stdin, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// read returns the next line the host gets.
func (b *bridged) read(t *testing.T) string {
	t.Helper()
	l, err := b.stdout.ReadString('\n')
	if err != nil {
		t.Fatalf("reading the bridge's stdout: %v", err)
	}
	return strings.TrimSuffix(l, "\n")
}

// The bridge carries the session: Mcp-Session-Id and the protocol version
// settled by initialize on every later request, --header on each, the GET
// stream opened after notifications/initialized (its messages reach the
// host as lines), a multi-line JSON answer made one line, and DELETE when
// the host closes stdin.
func TestProxyBridgeSession(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	getOpen := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(b, &m)
		mu.Lock()
		seen = append(seen, r.Method+" "+m.Method+" sid="+r.Header.Get("Mcp-Session-Id")+" v="+r.Header.Get("Mcp-Protocol-Version")+" flag="+r.Header.Get("X-Flag"))
		mu.Unlock()
		w.Header().Set("Mcp-Session-Id", "s-1")
		switch {
		case r.Method == http.MethodGet:
			w.Header().Set("Content-Type", "text/event-stream")
			flush(w, "id: 1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n")
			close(getOpen)
			<-r.Context().Done()
		case r.Method == http.MethodDelete:
			w.WriteHeader(http.StatusOK)
		case m.Method == "initialize":
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, "{\"jsonrpc\":\"2.0\",\n \"id\":"+string(m.ID)+",\n \"result\":{\"protocolVersion\":\"2025-06-18\"}}")
		case len(m.ID) == 0:
			w.WriteHeader(http.StatusAccepted)
		default:
			w.Header().Set("Content-Type", "text/event-stream")
			flush(w, "data: {\"jsonrpc\":\"2.0\",\"id\":"+string(m.ID)+",\"result\":{}}\n\n")
		}
	}))
	defer up.Close()
	b := startBridge(t, up.URL+"/mcp", http.Header{"X-Flag": {"f"}})
	b.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	if got := b.read(t); got != `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18"}}` {
		t.Fatalf("the host got %q", got)
	}
	b.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if got := b.read(t); !strings.Contains(got, "list_changed") {
		t.Fatalf("the GET stream's message reached the host as %q", got)
	}
	<-getOpen
	b.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if got := b.read(t); got != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Fatalf("the host got %q", got)
	}
	b.stdin.Close()
	if err := <-b.done; err != nil {
		t.Fatalf("the bridge ended with %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{
		"POST initialize sid= v= flag=f",
		"POST notifications/initialized sid=s-1 v=2025-06-18 flag=f",
		"GET  sid=s-1 v=2025-06-18 flag=f",
		"POST tools/list sid=s-1 v=2025-06-18 flag=f",
		"DELETE  sid=s-1 v=2025-06-18 flag=f",
	}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the server saw\n%s\nwant\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
}

// A request the server cannot answer (it is down) is answered to the host
// with a JSON-RPC error that says why; the bridge goes on.
func TestProxyBridgeServerDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	b := startBridge(t, "http://"+addr+"/mcp", nil)
	b.send(t, `{"jsonrpc":"2.0","id":"a","method":"initialize","params":{}}`)
	got := b.read(t)
	if !strings.Contains(got, `"id":"a"`) || !strings.Contains(got, "cannot be reached") || !strings.Contains(got, `"error"`) {
		t.Fatalf("the host got %q", got)
	}
	b.stdin.Close()
	if err := <-b.done; err != nil {
		t.Fatalf("the bridge ended with %v", err)
	}
}

// A request whose answer is slow to start holds up no later message of
// the host: the server sees the host's notifications/cancelled while it
// still holds the call, before it sends a byte of its answer.
func TestProxyBridgeSlowAnswerHoldsNothingUp(t *testing.T) {
	cancelled := make(chan struct{})
	held := make(chan bool, 1)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		switch {
		case strings.Contains(string(b), "notifications/cancelled"):
			close(cancelled)
			w.WriteHeader(http.StatusAccepted)
		case strings.Contains(string(b), "tools/call"):
			select {
			case <-cancelled:
				held <- true
			case <-time.After(guard.Hang):
				held <- false
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":3,"error":{"code":-32800,"message":"cancelled"}}`)
		}
	}))
	defer up.Close()
	b := startBridge(t, up.URL+"/mcp", nil)
	b.send(t, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow"}}`)
	b.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`)
	if got := b.read(t); !strings.Contains(got, `"id":3`) {
		t.Fatalf("the host got %q", got)
	}
	if !<-held {
		t.Fatal("the cancellation reached the server only after it gave up holding the call")
	}
}
