package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// serveLog is a stderr that the test reads while serve writes it.
type serveLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *serveLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *serveLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// serveContext is the context a test's `mcpscope serve` runs under: it
// ends with the test's commands or at guard.Run, whichever is first.
func serveContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), guard.Run) // hang guard only
}

// startServe runs `mcpscope` with args until ctx ends, and returns the
// submatches of the first match of line on its stderr, that stderr, and
// where its exit code comes. It fails the test if the line has not come
// within guard.Hang, or if ctx reached its deadline before the test
// ended.
func startServe(t *testing.T, ctx context.Context, line *regexp.Regexp, args ...string) ([]string, *serveLog, chan int) {
	t.Helper()
	errw := &serveLog{}
	exit := make(chan int, 1)
	t.Cleanup(func() {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			t.Errorf("mcpscope %s reached its bound of %s before the test ended; its stderr: %s", args[0], guard.Run, errw.String())
		}
	})
	go func() { exit <- Execute(ctx, args, strings.NewReader(""), &bytes.Buffer{}, errw) }()
	limit := time.NewTimer(guard.Hang)
	defer limit.Stop()
	for {
		select {
		case code := <-exit:
			t.Fatalf("serve exited %d before printing a line matching %s: %s", code, line, errw.String())
		case <-limit.C:
			t.Fatalf("serve printed no line matching %s within %s; its stderr so far: %s", line, guard.Hang, errw.String())
		case <-time.After(5 * time.Millisecond):
			if m := line.FindStringSubmatch(errw.String()); m != nil {
				return m, errw, exit
			}
		}
	}
}

// stopServe cancels what startServe started and checks that it exits 0
// within guard.Hang.
func stopServe(t *testing.T, cancel context.CancelFunc, errw *serveLog, exit chan int) {
	t.Helper()
	cancel()
	select {
	case code := <-exit:
		if code != ExitOK {
			t.Errorf("serve exited %d: %s", code, errw.String())
		}
	case <-time.After(guard.Hang):
		t.Fatalf("serve did not exit within %s of being cancelled; its stderr: %s", guard.Hang, errw.String())
	}
}

// connectLine is the command `mcpscope serve` prints.
var connectLine = regexp.MustCompile(`mcpscope call --cert-hash (sha256:[0-9a-f]{64}) tools/list '\{\}' (wt://127\.0\.0\.1:[0-9]+/mcp)`)

// `mcpscope serve` prints the certificate hash and a command; that exact
// command lists the demo's tools over MCP-Flow, and a stream arrives intact.
// SIGINT-free stop: cancelling the context ends serve with exit 0.
func TestServePrintsAWorkingConnectCommand(t *testing.T) {
	ctx, cancel := serveContext()
	defer cancel()
	m, errw, exit := startServe(t, ctx, connectLine, "serve", "--listen", "127.0.0.1:0", "--root", t.TempDir())
	r := mcpscope(t, "call", "--cert-hash", m[1], "tools/list", "{}", m[2])
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, `"read_file"`) || !strings.Contains(r.stdout, `"misbehave"`) {
		t.Errorf("tools/list: %s", r.stdout)
	}
	r = mcpscope(t, "call", "--cert-hash", m[1], "--stream-out", t.TempDir(), "tools/call",
		`{"name":"read_file","arguments":{"size":100000,"seed":9}}`, m[2])
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, `"sha256"`) {
		t.Errorf("read_file: %s", r.stdout)
	}
	stopServe(t, cancel, errw, exit)
}

// `mcpscope serve --stdio` keeps stdout to JSON-RPC lines; its banner goes
// to stderr.
func TestServeStdioKeepsStdoutClean(t *testing.T) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"hello.txt"}}}` + "\n")
	var out bytes.Buffer
	var errw serveLog
	ctx, cancel := serveContext()
	defer cancel()
	code := Execute(ctx, []string{"serve", "--stdio"}, in, &out, &errw)
	if ctx.Err() != nil {
		t.Fatalf("serve --stdio was still running %s after its input ended; its stderr: %s", guard.Run, errw.String())
	}
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errw.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for _, l := range lines {
		if !json.Valid([]byte(l)) {
			t.Errorf("stdout line %q is not JSON", l)
		}
	}
	if len(lines) != 2 || !strings.Contains(lines[1], `"blob"`) || !strings.Contains(errw.String(), "demo server on stdio") {
		t.Errorf("stdout %q, stderr %q", out.String(), errw.String())
	}
}

// Flags that contradict each other are usage errors.
func TestServeUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "--cert", "c.pem"},
		{"serve", "--stdio", "--listen", "127.0.0.1:1"},
		{"serve", "--max-streams", "0"},
		{"serve", "extra"},
		{"serve", "--stdio", "--http", "127.0.0.1:0"},
		{"serve", "--http", "127.0.0.1:0", "--cert", "c.pem", "--key", "k.pem"},
		{"serve", "--http", "127.0.0.1:0", "--max-streams", "4"},
		{"serve", "--http", ""},
	} {
		r := mcpscope(t, args...)
		r.mustExit(t, ExitUsage)
	}
}

// mcpURLLine is the Streamable HTTP line `mcpscope serve --http` prints.
var mcpURLLine = regexp.MustCompile(`Streamable HTTP .*: (http://127\.0\.0\.1:[0-9]+)/mcp\n`)

// `mcpscope serve --http 127.0.0.1:0` prints its URLs on stderr and serves
// them: initialize on /mcp opens a session, /sse opens with the endpoint
// event, /tools answers a tools/call; cancelling stops it with exit 0.
func TestServeHTTPPrintsItsURLs(t *testing.T) {
	ctx, cancel := serveContext()
	defer cancel()
	m, errw, exit := startServe(t, ctx, mcpURLLine, "serve", "--http", "127.0.0.1:0", "--root", t.TempDir())
	base := m[1]
	for _, want := range []string{base + "/sse (absolute endpoint: " + base + "/sse-abs)", "tool frames over HTTP (--transport tools-http): " + base + "/tools", "mcpscope tools " + base + "/mcp"} {
		if !strings.Contains(errw.String(), want) {
			t.Errorf("stderr lacks %q: %s", want, errw.String())
		}
	}
	post := func(path, body string) *http.Response {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = resp.Body.Close() })
		return resp
	}
	resp := post("/mcp", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Mcp-Session-Id") == "" || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Errorf("initialize: %s %v", resp.Status, resp.Header)
	}
	resp = post("/tools", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"tools-http"}}}`)
	if b, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"tools-http"`) {
		t.Errorf("tools: %s %s", resp.Status, b)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/sse", nil)
	if err != nil {
		t.Fatal(err)
	}
	sse, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(sse.Body).ReadString('\n')
	if err != nil || line != "event: endpoint\n" {
		t.Errorf("/sse: %q %v", line, err)
	}
	stopServe(t, cancel, errw, exit)
	_ = sse.Body.Close()
}
