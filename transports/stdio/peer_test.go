//go:build unix

package stdio

import (
	"encoding/json"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// TestGoSDKEverythingHandshake drives the official Go SDK's server by hand.
func TestGoSDKEverythingHandshake(t *testing.T) {
	argv := peertest.GoSDKEverything(t)
	rec := newRecorder()
	tr := New(Config{Command: argv[0], Args: argv[1:], Sink: rec})
	inbox := make(chan *jsonrpc.Message, 64)
	if err := tr.Start(t.Context(), func(m *jsonrpc.Message) { inbox <- m }); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { tr.Close() })

	send(t, tr, request(t, 1, "initialize", map[string]any{
		"protocolVersion": "2025-06-18",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]string{"name": "mcpscope-test", "version": "0"},
	}))
	resp := recv(t, inbox)
	var init struct {
		ProtocolVersion string
		ServerInfo      struct{ Name string }
	}
	if id, _ := resp.ID.Int(); id != 1 || json.Unmarshal(resp.Result, &init) != nil || init.ProtocolVersion != "2025-06-18" || init.ServerInfo.Name == "" {
		t.Fatalf("initialize answer = %s", resp.Raw)
	}
	notif, err := jsonrpc.NewNotification("notifications/initialized", nil)
	if err != nil {
		t.Fatal(err)
	}
	send(t, tr, notif)
	send(t, tr, request(t, 2, "tools/list", nil))
	var tools struct{ Tools []struct{ Name string } }
	for {
		m := recv(t, inbox)
		if id, _ := m.ID.Int(); id == 2 && m.IsResponse() {
			if json.Unmarshal(m.Result, &tools) != nil || len(tools.Tools) == 0 {
				t.Fatalf("tools/list answer = %s", m.Raw)
			}
			break
		}
	}
	if err := tr.Close(); err != nil || tr.Err() != nil {
		t.Fatalf("Close = %v, Err = %v", err, tr.Err())
	}
	if n := len(rec.all(isDir(capture.Out, capture.Control))); n != 3 {
		t.Fatalf("%d outgoing frames, want 3", n)
	}
	if len(rec.all(isDir(capture.In, capture.Control))) < 2 {
		t.Fatalf("incoming frames were not recorded")
	}
}
