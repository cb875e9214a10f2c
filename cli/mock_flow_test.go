package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/recordings/mock/flowserve"
)

// flowCannedAnswers answers as a recording would: initialize, tools/list (a
// log notification first) and ping; any other request gets -32601. It
// keeps what it was handed.
type flowCannedAnswers struct {
	mu   *sync.Mutex
	seen *[]string
}

// Handle answers one message.
func (c *flowCannedAnswers) Handle(msg []byte) [][]byte {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(msg, &m) != nil || m.ID == nil {
		return nil
	}
	c.mu.Lock()
	*c.seen = append(*c.seen, string(msg))
	c.mu.Unlock()
	reply := func(member string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,` + member + `}`)
	}
	switch m.Method {
	case "initialize":
		return [][]byte{reply(`"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"recorded","version":"1"},` +
			`"transport":{"type":"mcp-flow","version":"0.1","encoding":"json","datagramsSupported":true}}`)}
	case "tools/list":
		return [][]byte{
			[]byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"listing"}}`),
			reply(`"result":{"tools":[{"name":"echo","description":"Answer the message","inputSchema":{"type":"object"}}]}`),
		}
	case "ping":
		return [][]byte{reply(`"result":{}`)}
	case "tools/call": // a result recorded over MCP-Flow, its payload on a stream
		return [][]byte{reply(`"result":{"content":[{"type":"ref/stream","streamTag":1,"mimeType":"text/plain"}]}`)}
	}
	return [][]byte{reply(`"error":{"code":-32601,"message":"no recorded request is like ` + m.Method + `"}`)}
}

// mockFlowCanned serves flowCannedAnswers over MCP-Flow, and returns the target,
// the certificate hash, the messages the answers saw and what was printed
// before serving.
func mockFlowCanned(t *testing.T) (target, hash string, seen func() []string, banner string) {
	t.Helper()
	handed := new([]string)
	var mu sync.Mutex
	seen = func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(*handed)
	}
	target, hash, banner = serveMockFlowForTest(t, func(ctx context.Context, w io.Writer) error {
		return serveFlowAnswers(ctx, func() flowserve.Answerer { return &flowCannedAnswers{mu: &mu, seen: handed} }, nil, "127.0.0.1:0", w)
	})
	return target, hash, seen, banner
}

// serveMockFlowForTest runs serve (an MCP-Flow mock on 127.0.0.1:0,
// printing on w) until the end of the test, and returns the target, the
// certificate hash and what was printed before serving.
func serveMockFlowForTest(t *testing.T, serve func(ctx context.Context, w io.Writer) error) (target, hash, banner string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- serve(ctx, pw)
		pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-served:
			if err != nil {
				t.Errorf("serving: %v", err)
			}
		case <-time.After(guard.Hang):
			t.Errorf("the mock did not stop within %s", guard.Hang)
		}
	})
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var b strings.Builder
	for !strings.Contains(b.String(), "connect with:\n  ") || !strings.HasSuffix(b.String(), "\n") || strings.HasSuffix(b.String(), "connect with:\n") {
		select {
		case ln, ok := <-lines:
			if !ok {
				t.Fatalf("the mock stopped:\n%s", b.String())
			}
			b.WriteString(ln + "\n")
		case <-time.After(guard.Hang):
			t.Fatalf("no connect command within %s:\n%s", guard.Hang, b.String())
		}
	}
	go func() { // keep the pipe drained
		for range lines {
		}
	}()
	m := regexp.MustCompile(`--cert-hash (sha256:[0-9a-f]{64}) tools/list '\{\}' (wt://127\.0\.0\.1:\d+/mcp)\n`).FindStringSubmatch(b.String())
	if m == nil {
		t.Fatalf("no connect command:\n%s", b.String())
	}
	return m[2], m[1], b.String()
}

// The mock over MCP-Flow answers mcpscope's own client in JSON and in
// CBOR: the recorded answer, this session's transport object in the
// initialize result, and the notification before the answer.
func TestMockFlowAnswers(t *testing.T) {
	t.Parallel()
	target, hash, seen, banner := mockFlowCanned(t)
	if !regexp.MustCompile(`^mcpscope mock: MCP-Flow over WebTransport at https://127\.0\.0\.1:\d+/mcp\n` +
		`certificate \(self-signed, generated, valid until \S+\): sha256:[0-9a-f]{64}\nconnect with:\n  mcpscope call `).MatchString(banner) {
		t.Errorf("banner:\n%s", banner)
	}
	for _, enc := range []string{"json", "cbor"} {
		rec := filepath.Join(t.TempDir(), enc+".mcpscope.jsonl")
		r := mcpscope(t, "call", "--encoding", enc, "--cert-hash", hash, "--trace", "--record", rec, "tools/list", target)
		r.mustExit(t, ExitOK)
		if !strings.Contains(r.stdout, `"description":"Answer the message"`) ||
			!regexp.MustCompile(`← control \d+B notification notifications/message\n.*← control \d+B result id=2\n`).MatchString(r.stderr) {
			t.Errorf("%s: stdout %s\nstderr:\n%s", enc, r.stdout, r.stderr)
		}
		b, err := os.ReadFile(rec)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `\"transport\":{\"type\":\"mcp-flow\",\"version\":\"0.1\",\"encoding\":\"`+enc+`\"`) ||
			!strings.Contains(string(b), `\"datagramsSupported\":false`) {
			t.Errorf("%s: the initialize result lacks the session's transport:\n%s", enc, b)
		}
	}
	r := mcpscope(t, "call", "--cert-hash", hash, "prompts/list", target)
	r.mustExit(t, ExitRPCError)
	if !strings.Contains(r.stderr, "no recorded request is like prompts/list") {
		t.Errorf("stderr: %s", r.stderr)
	}
	// A stream the recording refers to fails at once, not at --timeout.
	r = mcpscope(t, "call", "--cert-hash", hash, "--timeout", guard.Run.String(), "tools/call", `{"name":"read_file"}`, target)
	r.mustExit(t, ExitConnection)
	if !strings.Contains(r.stderr, `execution stream 2/1 failed after 0 bytes: the server reported "mcpscope mock does not replay execution streams"`) {
		t.Errorf("stderr: %s", r.stderr)
	}
	// The answers were handed JSON, CBOR sessions included.
	if len(seen()) != 8 { // initialize and a request, four sessions
		t.Errorf("handed %q", seen())
	}
	for _, m := range seen() {
		if !json.Valid([]byte(m)) {
			t.Errorf("handed %q", m)
		}
	}
}

// An address that is no HOST:PORT is a usage error, before anything binds.
func TestMockFlowBadAddress(t *testing.T) {
	t.Parallel()
	err := serveFlowAnswers(context.Background(), nil, nil, "4433", io.Discard)
	if ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), `--listen "4433"`) {
		t.Errorf("error %v (exit %d)", err, ExitCode(err))
	}
}

// flowUnitsRecording is a recording that holds MCP-Flow units.
type flowUnitsRecording struct{}

func (flowUnitsRecording) FlowUnits() (streams, datagrams int) { return 2, 5 }

// A recording that holds execution streams and datagrams is told, at
// start, to be replayed on its control stream only.
func TestMockFlowNotReplayedNote(t *testing.T) {
	t.Parallel()
	_, _, banner := serveMockFlowForTest(t, func(ctx context.Context, w io.Writer) error {
		return serveFlowAnswers(ctx, func() flowserve.Answerer { return &flowCannedAnswers{mu: new(sync.Mutex), seen: new([]string)} }, flowUnitsRecording{}, "127.0.0.1:0", w)
	})
	if !strings.Contains(banner, "\nnote: the recording holds 2 execution streams and 5 datagrams; the mock replays the control stream only\n") {
		t.Errorf("banner:\n%s", banner)
	}
}
