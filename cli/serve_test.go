package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
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

// connectLine is the command `mcpscope serve` prints.
var connectLine = regexp.MustCompile(`mcpscope call --cert-hash (sha256:[0-9a-f]{64}) tools/list '\{\}' (wt://127\.0\.0\.1:[0-9]+/mcp)`)

// `mcpscope serve` prints the certificate hash and a command; that exact
// command lists the demo's tools over MCP-Flow, and a stream arrives intact.
// SIGINT-free stop: cancelling the context ends serve with exit 0.
func TestServePrintsAWorkingConnectCommand(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var errw serveLog
	exit := make(chan int, 1)
	go func() {
		exit <- Execute(ctx, []string{"serve", "--listen", "127.0.0.1:0", "--root", t.TempDir()}, strings.NewReader(""), &bytes.Buffer{}, &errw)
	}()
	var m []string
	for m == nil {
		select {
		case code := <-exit:
			t.Fatalf("serve exited %d: %s", code, errw.String())
		case <-time.After(5 * time.Millisecond):
			m = connectLine.FindStringSubmatch(errw.String())
		}
	}
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
	cancel()
	select {
	case code := <-exit:
		if code != ExitOK {
			t.Errorf("serve exited %d: %s", code, errw.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("serve did not stop")
	}
}

// `mcpscope serve --stdio` keeps stdout to JSON-RPC lines; its banner goes
// to stderr.
func TestServeStdioKeepsStdoutClean(t *testing.T) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"hello.txt"}}}` + "\n")
	var out bytes.Buffer
	var errw serveLog
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if code := Execute(ctx, []string{"serve", "--stdio"}, in, &out, &errw); code != ExitOK {
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
	} {
		r := mcpscope(t, args...)
		r.mustExit(t, ExitUsage)
	}
}
