package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/proto/gateway"
)

// writeRandomFile writes size pseudo-random bytes to a new file under a
// temporary folder, a block at a time, and returns its path and sha256.
func writeRandomFile(t *testing.T, size int64) (string, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "up.bin")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.New()
	src := rand.NewChaCha8([32]byte{'g', 'w'})
	if _, err := io.CopyN(io.MultiWriter(f, sum), src, size); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path, hex.EncodeToString(sum.Sum(nil))
}

// fileSHA256 hashes a file as it reads it, never holding it whole, and
// returns its size and sha256.
func fileSHA256(t *testing.T, path string) (int64, string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sum := sha256.New()
	n, err := io.Copy(sum, f)
	if err != nil {
		t.Fatal(err)
	}
	return n, hex.EncodeToString(sum.Sum(nil))
}

// `mcpscope stream --upload` of 64 MiB to the demo's gateway arrives
// intact: the server's done summary names the file's sha256, its size
// and its 1024 chunks of 64 KiB.
func TestGatewayDemoUpload64MiB(t *testing.T) {
	const size = 64 << 20
	file, want := writeRandomFile(t, size)
	got := streamSummary(t, mcpscope(t, "stream", "--upload", file, "system_binary_streams_in", startGatewayDemo(t)))
	if got["sha256"] != want || got["totalBytes"] != float64(size) || got["totalChunks"] != float64(size/DefaultChunkSize) {
		t.Errorf("summary %v, want sha256 %s of %d bytes", got, want, size)
	}
}

// A server stream that stalls after its start and one chunk ends
// `mcpscope stream` after --timeout with no sign of life (exit 4), well
// before --max-time; what arrived is saved and said not to have ended.
func TestStreamStalledEndsAfterTimeout(t *testing.T) {
	theirs := gateway.NewGUID()
	g := serverStream(theirs, &gateway.StreamMeta{Method: "system_binary_streams_out", Binary: true}, func(ctx context.Context, c *websocket.Conn) {
		_ = c.Write(ctx, websocket.MessageBinary, gateway.AppendGatewayChunk(nil, theirs, 0, []byte("the only chunk")))
	})
	dir := t.TempDir()
	r := mcpscope(t, "stream", "--timeout", "500ms", "--max-time", "30s", "--stream-out", dir, "system_binary_streams_out", g.url(t))
	r.mustExit(t, ExitTimeout)
	if !strings.Contains(r.stderr, "no sign of life from the gateway for 500ms (--timeout)") {
		t.Errorf("stderr %s", r.stderr)
	}
	if !strings.Contains(r.stderr, "14 bytes in 1 chunk, not ended") {
		t.Errorf("stderr does not say what arrived: %s", r.stderr)
	}
	if saved, err := os.ReadFile(filepath.Join(dir, theirs.String()+".bin")); err != nil || string(saved) != "the only chunk" {
		t.Errorf("saved %q, %v", saved, err)
	}
}
