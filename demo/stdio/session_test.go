package stdio

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	stdiotransport "github.com/mcpscope/mcpscope/transports/stdio"
)

// connect starts the test binary as a stdio demo server through the real
// stdio transport and connects the engine to it.
func connect(t *testing.T, opts client.Options) (*client.Session, string) {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello over stdio\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tr := stdiotransport.New(stdiotransport.Config{Command: exe, Env: []string{childEnv + "=1", childRoot + "=" + root}})
	s := client.New(tr, opts)
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, root
}

// call runs one tools/call.
func call(t *testing.T, s *client.Session, name string, args any, opts ...client.CallOption) (json.RawMessage, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	return s.Call(ctx, "tools/call", map[string]any{"name": name, "arguments": args}, opts...)
}

// The engine falls back from server/discover to initialize (legacy era),
// lists the tools, and echo answers.
func TestStdioToolsListAndEcho(t *testing.T) {
	s, _ := connect(t, client.Options{})
	if s.Era() != client.EraLegacy || s.ProtocolVersion() != mcp.LatestLegacy || s.ServerInfo().Name != "mcpscope-demo" {
		t.Fatalf("era %s, version %s, server %+v", s.Era(), s.ProtocolVersion(), s.ServerInfo())
	}
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	tools, err := s.ListAll(ctx, "tools/list", "tools", nil)
	if err != nil || len(tools) != 17 {
		t.Fatalf("tools/list: %d tools, %v", len(tools), err)
	}
	res, err := call(t, s, "echo", map[string]any{"message": "over stdio"})
	if err != nil || !strings.Contains(string(res), `"text":"over stdio"`) {
		t.Errorf("echo: %s %v", res, err)
	}
}

// read_file answers inline with the file's bytes and their sha256, and
// refuses what is over the inline limit.
func TestStdioReadFileInline(t *testing.T) {
	s, _ := connect(t, client.Options{})
	res, err := call(t, s, "read_file", map[string]any{"path": "hello.txt"})
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Content []struct {
			Type     string `json:"type"`
			Resource struct{ URI, MimeType, Blob string }
		}
		StructuredContent struct {
			Size   int64
			SHA256 string
		}
	}
	if err := json.Unmarshal(res, &r); err != nil || len(r.Content) != 1 || r.Content[0].Type != "resource" {
		t.Fatalf("read_file: %s", res)
	}
	blob, err := base64.StdEncoding.DecodeString(r.Content[0].Resource.Blob)
	sum := sha256.Sum256(blob)
	if err != nil || string(blob) != "hello over stdio\n" || r.StructuredContent.SHA256 != hex.EncodeToString(sum[:]) || r.StructuredContent.Size != 17 {
		t.Errorf("read_file: %s", res)
	}
	_, err = call(t, s, "read_file", map[string]any{"size": 1 << 20})
	var rpc *client.RPCError
	if !errors.As(err, &rpc) || rpc.Err.Code != mcp.CodeInvalidParams || !strings.Contains(rpc.Err.Message, "too large for stdio") {
		t.Errorf("1 MiB over stdio: %v", err)
	}
}

// analyze reports notifications/progress for the request's token and
// notifications/message per step, then "analysis complete".
func TestStdioAnalyzeProgress(t *testing.T) {
	var mu sync.Mutex
	var logs []string
	s, _ := connect(t, client.Options{OnNotification: func(m *jsonrpc.Message) {
		if m.Method == mcp.MethodNotifyMessage {
			mu.Lock()
			logs = append(logs, string(m.Params))
			mu.Unlock()
		}
	}})
	var progress []mcp.ProgressNotificationParams
	res, err := call(t, s, "analyze", map[string]any{"steps": 3, "interval_ms": 1},
		client.WithProgress(func(p mcp.ProgressNotificationParams) { progress = append(progress, p) }))
	if err != nil || !strings.Contains(string(res), "analysis complete") {
		t.Fatalf("analyze: %s %v", res, err)
	}
	if len(progress) != 3 || progress[2].Progress != 3 || progress[2].Total == nil || *progress[2].Total != 3 || progress[0].Message != "step 1/3" {
		t.Errorf("progress %+v", progress)
	}
	// The messages were sent before the result; the engine hands them over
	// in order, so wait for the queue rather than for time.
	deadline := time.Now().Add(guard.Hang)
	for {
		mu.Lock()
		n := len(logs)
		mu.Unlock()
		if n == 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(logs) != 3 || !strings.Contains(logs[0], `"logger":"analyze"`) {
		t.Errorf("log notifications after waiting at most %s for 3: %v", guard.Hang, logs)
	}
}

// misbehave drop ends the server without an answer: the call fails with
// the lost connection.
func TestStdioMisbehaveDrop(t *testing.T) {
	s, _ := connect(t, client.Options{})
	_, err := call(t, s, "misbehave", map[string]any{"mode": "drop"})
	var ce *client.ConnectionError
	if !errors.As(err, &ce) {
		t.Errorf("drop: %v", err)
	}
}
