package demo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// The generator yields byte i = (i*31 + seed) % 251 through Read and
// WriteTo, at any chunk size and across the pattern's period.
func TestGeneratorMatchesFormula(t *testing.T) {
	for _, seed := range []int64{0, 5, 250, 251, 1000} {
		for _, chunk := range []int{1, 7, 251, 4096} {
			const size = 3000
			want := make([]byte, size)
			for i := range want {
				want[i] = byte((int64(i)*31 + seed) % 251)
			}
			read, err := io.ReadAll(newGenerator(size, seed, chunk))
			if err != nil || !bytes.Equal(read, want) {
				t.Fatalf("seed %d chunk %d: Read differs", seed, chunk)
			}
			var buf bytes.Buffer
			if n, err := newGenerator(size, seed, chunk).WriteTo(&buf); err != nil || n != size || !bytes.Equal(buf.Bytes(), want) {
				t.Fatalf("seed %d chunk %d: WriteTo differs", seed, chunk)
			}
		}
	}
}

// Without streams read_file answers an embedded blob with its sha256 up to
// the inline limit, and refuses more with "too large for stdio".
func TestReadFileInline(t *testing.T) {
	s := newTestServer(t)
	if err := os.WriteFile(filepath.Join(s.SandboxRoot(), "a.json"), []byte(`{"a":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	m := callTool(t, s, "read_file", map[string]any{"path": "a.json"})
	var res struct {
		Content []struct {
			Type     string               `json:"type"`
			Resource mcp.ResourceContents `json:"resource"`
		} `json:"content"`
		Structured struct {
			Size   int64  `json:"size"`
			SHA256 string `json:"sha256"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(m.Result, &res); err != nil || len(res.Content) != 1 {
		t.Fatalf("read_file: %s", m.Result)
	}
	blob, _ := base64.StdEncoding.DecodeString(res.Content[0].Resource.Blob)
	sum := sha256.Sum256(blob)
	if string(blob) != `{"a":1}` || res.Content[0].Resource.MimeType != "application/json" || res.Structured.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("inline read: %s", m.Result)
	}
	big := callTool(t, s, "read_file", map[string]any{"size": 1<<16 + 1})
	if rpcCode(big) != mcp.CodeInvalidParams || !strings.Contains(big.Error.Message, "too large for stdio; use MCP-Flow") {
		t.Errorf("over the limit: %+v", big.Error)
	}
}

// copyPayload stops when the context ends.
func TestCopyPayloadHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := payload{size: 1 << 30, open: func(chunk int) (io.Reader, func(), error) { return newGenerator(1<<30, 0, chunk), func() {}, nil }}
	if _, err := copyPayload(ctx, p, io.Discard, 1<<10); err == nil {
		t.Fatal("a cancelled copy succeeded")
	}
}

// The sandbox refuses every way out of its root.
func TestSandboxRefusals(t *testing.T) {
	s := newTestServer(t)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "x"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(s.SandboxRoot(), "out")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"", "/etc/passwd", "../x", "a/../../x", "out/x", "nul\x00", "missing"} {
		if _, _, err := s.sandbox.open(p); err == nil {
			t.Errorf("path %q opened", p)
		}
	}
}

// A server without a sandbox root makes one with samples and removes it.
func TestTemporarySandbox(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := s.SandboxRoot()
	if _, err := os.Stat(filepath.Join(dir, "hello.txt")); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the temporary sandbox %s was left behind", dir)
	}
}
