package flow

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/demo/internal/wizardtest"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/flowstream"
	"github.com/quic-go/webtransport-go"
)

// readFileResult is the result of read_file.
type readFileResult struct {
	Content []struct {
		Type      string `json:"type"`
		StreamTag uint32 `json:"streamTag"`
		MimeType  string `json:"mimeType"`
		Size      int64  `json:"size"`
	} `json:"content"`
	Structured struct {
		Size   int64  `json:"size"`
		SHA256 string `json:"sha256"`
	} `json:"structuredContent"`
}

// acceptStream accepts the next execution stream and reads its header.
func (c *rawClient) acceptStream() (*webtransport.ReceiveStream, flow.ExecStreamHeader) {
	c.t.Helper()
	ctx, cancel := withHang()
	defer cancel()
	str, err := c.sess.AcceptUniStream(ctx)
	if err != nil {
		c.t.Fatalf("no execution stream: %v", err)
	}
	h, raw, _, err := flowstream.ReadExecStreamHeader(str)
	if err != nil || len(raw) != flow.ExecStreamHeaderLen {
		c.t.Fatalf("execution stream header % x: %v", raw, err)
	}
	return str, h
}

// expectedSum is the sha256 of generated data, computed byte by byte from
// the formula of flow.md, independently of the server's generator.
func expectedSum(size, seed int64) string {
	h := sha256.New()
	buf := make([]byte, 0, 1<<16)
	for i := int64(0); i < size; i++ {
		buf = append(buf, byte((i*31+seed)%251))
		if len(buf) == cap(buf) {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	h.Write(buf)
	return hex.EncodeToString(h.Sum(nil))
}

// sumOf hashes the rest of a stream.
func sumOf(t *testing.T, r io.Reader) (string, int64) {
	t.Helper()
	h := sha256.New()
	n, err := io.Copy(h, r)
	if err != nil {
		t.Fatalf("reading the stream: %v", err)
	}
	return hex.EncodeToString(h.Sum(nil)), n
}

// Each order delivers the 8-byte header with the request id and the tag of
// the result, and a payload that hashes to the announced sha256. The data
// (4 MiB) is larger than a stream's flow-control window, so a result that
// the test awaits before reading the payload proves it was sent first.
func TestExecStreamHeaderAndHash(t *testing.T) {
	c := connect(t, startServer(t, Config{}))
	c.initialize([]string{"cbor", "json"})
	const size, seed = 4 << 20, 7
	want := expectedSum(size, seed)
	for i, order := range []string{"stream_first", "response_first", "any"} {
		id := int64(10 + i)
		c.requestTool(id, "read_file", map[string]any{"size": size, "seed": seed, "order": order, "chunk": 10000})
		var res readFileResult
		var got string
		var n int64
		var h flow.ExecStreamHeader
		switch order {
		case "stream_first":
			var str *webtransport.ReceiveStream
			str, h = c.acceptStream()
			got, n = sumOf(t, str)
			res = wizardtest.Result[readFileResult](t, c.await(id, nil))
		case "response_first":
			res = wizardtest.Result[readFileResult](t, c.await(id, nil))
			var str *webtransport.ReceiveStream
			str, h = c.acceptStream()
			got, n = sumOf(t, str)
		case "any":
			var str *webtransport.ReceiveStream
			str, h = c.acceptStream()
			res = wizardtest.Result[readFileResult](t, c.await(id, nil))
			got, n = sumOf(t, str)
		}
		if h.RequestID != uint32(id) || len(res.Content) != 1 || h.StreamTag != res.Content[0].StreamTag || h.StreamTag != 1 {
			t.Errorf("%s: header %+v, result %+v", order, h, res.Content)
		}
		if got != want || res.Structured.SHA256 != want || n != size || res.Structured.Size != size || res.Content[0].Size != size {
			t.Errorf("%s: payload %d bytes sha256 %s; announced %+v; want %s", order, n, got, res.Structured, want)
		}
		if res.Content[0].Type != "ref/stream" || res.Content[0].MimeType != "application/octet-stream" {
			t.Errorf("%s: content item %+v", order, res.Content[0])
		}
	}
}

// A sandbox file arrives byte for byte with a type from its extension.
func TestReadSandboxFile(t *testing.T) {
	c := connect(t, startServer(t, Config{}))
	c.initialize([]string{"json"})
	c.requestTool(2, "read_file", map[string]any{"path": "hello.txt"})
	str, h := c.acceptStream()
	body, err := io.ReadAll(str)
	if err != nil || string(body) != "hello, sandbox\n" || h.RequestID != 2 {
		t.Fatalf("stream %q (%v), header %+v", body, err, h)
	}
	res := wizardtest.Result[readFileResult](t, c.await(2, nil))
	sum := sha256.Sum256(body)
	if res.Structured.SHA256 != hex.EncodeToString(sum[:]) || res.Content[0].MimeType != "text/plain; charset=utf-8" {
		t.Errorf("result %+v", res)
	}
}

// Absolute paths, "..", and symlinks out of the root are refused -32602; a
// symlink inside the root is fine.
func TestPathTraversalRefused(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(root, "in.txt"), "inside")
	writeFile(t, filepath.Join(outside, "secret.txt"), "secret")
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "outdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("in.txt", filepath.Join(root, "alias")); err != nil {
		t.Fatal(err)
	}
	c := connect(t, startServer(t, Config{SandboxRoot: root}))
	c.initialize([]string{"cbor"})
	bad := []string{"../" + filepath.Base(outside) + "/secret.txt", filepath.Join(outside, "secret.txt"),
		"escape", "outdir/secret.txt", "a/../../x", "missing.txt", "."}
	for i, p := range bad {
		e := errorOf(t, c.toolCall(int64(10+i), "read_file", map[string]any{"path": p}))
		if e.Code != mcp.CodeInvalidParams {
			t.Errorf("path %q: %d %s", p, e.Code, e.Message)
		}
	}
	c.requestTool(30, "read_file", map[string]any{"path": "alias", "order": "stream_first"})
	str, _ := c.acceptStream()
	if body, _ := io.ReadAll(str); string(body) != "inside" {
		t.Errorf("symlink inside the root read %q", body)
	}
	wizardtest.Result[readFileResult](t, c.await(30, nil))
}

// With maxConcurrentStreams 1, a second stream while the first is open is
// refused -32000 "Stream Limit Exceeded"; ping is answered meanwhile; once
// the first stream is read to its end, a new one is allowed.
func TestStreamLimitEnforced(t *testing.T) {
	c := connect(t, startServer(t, Config{MaxConcurrentStreams: 1}))
	c.initialize([]string{"cbor", "json"})
	const size = 16 << 20
	c.requestTool(2, "read_file", map[string]any{"size": size})
	first, _ := c.acceptStream()
	wizardtest.Result[readFileResult](t, c.await(2, nil))
	e := errorOf(t, c.toolCall(3, "read_file", map[string]any{"size": 10}))
	if e.Code != -32000 || e.Message != "Stream Limit Exceeded" {
		t.Errorf("second stream: %d %s", e.Code, e.Message)
	}
	if m := c.call(4, "ping", nil); string(m.Result) != "{}" {
		t.Errorf("ping during the transfer: %s", describe(m))
	}
	if _, n := sumOf(t, first); n != size {
		t.Fatalf("first stream carried %d bytes", n)
	}
	c.requestTool(5, "read_file", map[string]any{"size": 10})
	str, h := c.acceptStream()
	if got, _ := sumOf(t, str); got != expectedSum(10, 0) || h.RequestID != 5 {
		t.Errorf("stream after release: header %+v", h)
	}
	wizardtest.Result[readFileResult](t, c.await(5, nil))
}

// $/shutdown: new streams are refused, the running stream is drained to
// its end, and then the server closes the session with code 0 "shutdown".
func TestShutdownDrainsThenCloses(t *testing.T) {
	c := connect(t, startServer(t, Config{ShutdownGrace: time.Second}))
	c.initialize([]string{"cbor"})
	const size = 8 << 20
	c.requestTool(2, "read_file", map[string]any{"size": size, "seed": 3})
	str, h := c.acceptStream()
	res := wizardtest.Result[readFileResult](t, c.await(2, nil))
	c.notify(flow.MethodFlowShutdown, nil)
	if e := errorOf(t, c.toolCall(3, "read_file", map[string]any{"size": 10})); e.Code != mcp.CodeInternalError {
		t.Errorf("stream after $/shutdown: %d %s", e.Code, e.Message)
	}
	got, n := sumOf(t, str)
	if got != res.Structured.SHA256 || n != size || h.RequestID != 2 {
		t.Fatalf("drained stream: %d bytes, sha256 %s, want %s", n, got, res.Structured.SHA256)
	}
	ctx, cancel := withHang()
	defer cancel()
	_, err := c.sess.AcceptStream(ctx)
	var se *webtransport.SessionError
	if !errors.As(err, &se) || !se.Remote || se.ErrorCode != 0 || se.Message != "shutdown" {
		t.Fatalf("session end: %v", err)
	}
}
