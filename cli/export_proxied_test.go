package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/recordings"
)

// passCarrier carries every message on and keeps nothing.
type passCarrier struct{}

func (passCarrier) Pass(context.Context, proxy.Hop) error           { return nil }
func (passCarrier) Send(context.Context, capture.Dir, []byte) error { return nil }
func (passCarrier) Cut(string)                                      {}

// TestExportTextOfAProxiedSession exports a proxy's recording as text:
// garbage the host sent reads as a decode error (mcpscope wrote none of
// it), and the proxy's marks say what it did.
func TestExportTextOfAProxiedSession(t *testing.T) {
	path := filepath.Join(t.TempDir(), "proxied"+recordings.Ext)
	sess, err := proxy.Open(proxy.Options{Name: "export", Record: path, Transport: "stdio", Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"not json at all", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`} {
		raw := []byte(line + "\n")
		h := proxy.Hop{Dir: capture.Out, Chan: capture.Channel{Kind: capture.Control}, Raw: raw, Body: raw[:len(line)], Enc: proto.EncJSON}
		if err := sess.Relay(context.Background(), h, passCarrier{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := sess.Close(nil); err != nil {
		t.Fatal(err)
	}
	r, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out bytes.Buffer
	if _, err := writeTrace(&out, r); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"→ control 16B decode error: not a JSON-RPC message", "request tools/list id=1", "← proxy", "session ended: closed"} {
		if !strings.Contains(text, want) {
			t.Errorf("the export lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "write failed") {
		t.Errorf("a host's garbage reads as a failed write of mcpscope's:\n%s", text)
	}
}
