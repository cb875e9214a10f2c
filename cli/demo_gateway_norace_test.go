//go:build !race

package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// `mcpscope stream --stream-out` of a 1 GiB download from the demo's
// gateway saves it intact: the file is 1 GiB and its sha256, hashed as
// it is read back, is the one the server's done summary names. (Not
// under the race detector: it would take minutes; about 10 s without.)
func TestGatewayDemoDownload1GiB(t *testing.T) {
	const size = 1 << 30
	dir := t.TempDir()
	got := streamSummary(t, mcpscope(t, "stream", "--stream-out", dir, "--meta", `{"totalSize":1073741824}`,
		"system_binary_streams_out", startGatewayDemo(t)))
	files, err := filepath.Glob(filepath.Join(dir, "*.bin"))
	if err != nil || len(files) != 1 {
		t.Fatalf("saved %v (%v), want one file", files, err)
	}
	n, sum := fileSHA256(t, files[0])
	if n != size || got["sha256"] != sum || got["totalBytes"] != float64(size) {
		t.Errorf("saved %d bytes of sha256 %s; summary %v", n, sum, got)
	}
	if err := os.Remove(files[0]); err != nil {
		t.Error(err)
	}
}
