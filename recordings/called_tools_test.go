package recordings

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// recordCalls writes a recording of target at path whose client sent
// tools/call for each name, each answered.
func recordCalls(t *testing.T, path, target string, names ...string) {
	t.Helper()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	w, err := Create(path, Header{Target: target, Transport: "tools-http", Started: start}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	frame := func(dir capture.Dir, raw string) {
		m, err := jsonrpc.Decode(proto.EncJSON, []byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		w.Append(&capture.Frame{Time: start, Dir: dir, Conn: "http POST 1", Raw: []byte(raw + "\n"), Enc: proto.EncJSON, Msg: m})
	}
	for i, n := range names {
		id := string(rune('1' + i))
		frame(capture.Out, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"`+n+`","arguments":{}}}`)
		frame(capture.In, `{"jsonrpc":"2.0","id":`+id+`,"result":{"content":[]}}`)
	}
	// A tools/call the server sent is not one the client called.
	frame(capture.In, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"server_side"}}`)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// Latest finds the newest recording of the same target, past the one
// being written and past another target's; CalledTools lists the tools its
// client called, once each, in order.
func TestLatestRecordingsCalledTools(t *testing.T) {
	dir := t.TempDir()
	const target = "http://127.0.0.1:9/tools"
	at := func(s string) time.Time { tm, _ := time.Parse(time.RFC3339, s); return tm }
	older := NewPath(dir, target, at("2026-01-01T00:00:00Z"))
	newer := NewPath(dir, target, at("2026-01-02T00:00:00Z"))
	current := NewPath(dir, target, at("2026-01-03T00:00:00Z"))
	other := NewPath(dir, "http://127.0.0.1:9/tools?x=1", at("2026-01-04T00:00:00Z"))
	recordCalls(t, older, target, "old")
	recordCalls(t, newer, target, "echo", "add", "echo")
	recordCalls(t, current, target)
	recordCalls(t, other, "http://127.0.0.1:9/tools?x=1", "elsewhere")
	got, err := Latest(dir, target, current)
	if err != nil || got != newer {
		t.Fatalf("Latest = %q, %v; want %q", got, err, newer)
	}
	names, err := CalledTools(got)
	if err != nil || !slices.Equal(names, []string{"echo", "add"}) {
		t.Errorf("CalledTools = %q, %v; want echo, add", names, err)
	}
	if got, err := Latest(filepath.Join(dir, "none"), target, ""); got != "" || err != nil {
		t.Errorf("Latest in a missing directory = %q, %v", got, err)
	}
	if err := os.Remove(newer); err != nil {
		t.Fatal(err)
	}
	if got, _ := Latest(dir, target, current); got != older {
		t.Errorf("Latest after removing the newest = %q, want %q", got, older)
	}
}
