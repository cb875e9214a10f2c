package cli

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto/gateway"
)

// startGatewayDemo serves the demo's gateway in this process for the
// test and returns its URL.
func startGatewayDemo(t *testing.T) string {
	t.Helper()
	return startTestDemo(t, startWSDemo, "gateway")
}

// startTestDemo serves the demo in this process for the test with start
// (startHTTPDemo, startWSDemo) and returns the URL of transport's
// endpoint; the server stops when the test ends.
func startTestDemo(t *testing.T, start func(context.Context, string) (Target, func() error, error), transport string) string {
	t.Helper()
	target, stop, err := start(context.Background(), transport)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("stopping: %v", err)
		}
	})
	return target.URL.String()
}

// streamSummary decodes the summary `mcpscope stream` prints.
func streamSummary(t *testing.T, r result) map[string]any {
	t.Helper()
	r.mustExit(t, ExitOK)
	var v map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Fatalf("stdout %q: %v", r.stdout, err)
	}
	return v
}

// mcpscope stream against the demo's gateway: an upload arrives intact
// (the server's sha256 is the file's), a download is saved intact (its
// file's sha256 is the server's), duplex echoes the upload, text chunks
// are counted; the session's JSON-RPC reaches the demo's tools.
func TestGatewayDemoStreams(t *testing.T) {
	url := startGatewayDemo(t)
	payload := make([]byte, 300000)
	_, _ = rand.Read(payload)
	file := filepath.Join(t.TempDir(), "up.bin")
	if err := os.WriteFile(file, payload, 0o644); err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256(payload)

	got := streamSummary(t, mcpscope(t, "stream", "--upload", file, "system_binary_streams_in", url))
	if got["sha256"] != hex.EncodeToString(want[:]) || got["totalBytes"] != 300000.0 || got["totalChunks"] != 5.0 {
		t.Errorf("upload summary %v", got)
	}

	dir := t.TempDir()
	got = streamSummary(t, mcpscope(t, "stream", "--stream-out", dir, "--meta", `{"totalSize":200000}`, "system_binary_streams_out", url))
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 1 {
		t.Fatalf("saved %v", files)
	}
	saved, _ := os.ReadFile(files[0])
	sum := sha256.Sum256(saved)
	if len(saved) != 200000 || got["sha256"] != hex.EncodeToString(sum[:]) {
		t.Errorf("download: %d bytes, summary %v", len(saved), got)
	}

	dir = t.TempDir()
	got = streamSummary(t, mcpscope(t, "stream", "--upload", file, "--stream-out", dir, "system_binary_streams_duplex", url))
	files, _ = filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 1 {
		t.Fatalf("duplex saved %v", files)
	}
	if echoed, _ := os.ReadFile(files[0]); got["sha256"] != hex.EncodeToString(want[:]) || string(echoed) != string(payload) {
		t.Errorf("duplex: %d bytes echoed, summary %v", len(echoed), got)
	}

	lines := filepath.Join(t.TempDir(), "lines.jsonl")
	if err := os.WriteFile(lines, []byte("\"a\"\n{\"b\":2}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got = streamSummary(t, mcpscope(t, "stream", "--text", "--upload", lines, "system_binary_streams_in", url)); got["totalChunks"] != 2.0 {
		t.Errorf("text upload summary %v", got)
	}

	r := mcpscope(t, "call", "--transport", "gateway", "tools/call", callTool(t, "echo", map[string]any{"message": "over the gateway"}), url)
	if got := toolText(t, r); !strings.Contains(got, "over the gateway") {
		t.Errorf("call over the gateway: %q", got)
	}
}

// Every broken stream of the demo's gateway ends `mcpscope stream` with a
// clear message and a failing exit, never a panic.
func TestGatewayDemoMisbehaves(t *testing.T) {
	url := startGatewayDemo(t)
	for mode, want := range map[string]string{
		"rfc_guid":         "unknown stream",
		"index_gap":        "index",
		"unknown_stream":   "unknown stream",
		"error_mid_stream": "midway",
	} {
		r := mcpscope(t, "stream", "--timeout", "5s", "--meta", `{"name":"`+mode+`"}`, "misbehave", url)
		if r.code == ExitOK || !strings.Contains(r.stderr+r.stdout, want) || strings.Contains(r.stderr, "panic") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", mode, r.code, r.stdout, r.stderr)
		}
	}
}

// The demo's text stream saved under --stream-out: one file named by the
// server's stream GUID with .ndjson, one JSON value a line (compacted), in
// the order the chunks came; stderr names the file, stdout is the done
// summary.
func TestGatewayDemoSavesTextStream(t *testing.T) {
	url := startGatewayDemo(t)
	dir := t.TempDir()
	r := mcpscope(t, "stream", "--stream-out", dir, "system_text_streams_out", url)
	if got := streamSummary(t, r); got["totalChunks"] != 6.0 {
		t.Errorf("summary %v", got)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 1 || !strings.HasSuffix(files[0], ".ndjson") {
		t.Fatalf("saved %v", files)
	}
	if _, err := gateway.ParseGUID(strings.TrimSuffix(filepath.Base(files[0]), ".ndjson")); err != nil {
		t.Errorf("the file is not named by a GUID: %v", err)
	}
	saved, err := os.ReadFile(files[0])
	want := "\"Hello, world!\"\n42\ntrue\n{\"line\":4,\"text\":\"an object\"}\n[1,\"two\",3.5]\nnull\n"
	if err != nil || string(saved) != want {
		t.Errorf("saved %q, %v\nwant %q", saved, err, want)
	}
	if !strings.Contains(r.stderr, "(values.json): 67 bytes in 6 chunks saved to "+files[0]) {
		t.Errorf("stderr %s", r.stderr)
	}
}
