package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/recordings"
)

// `mcpscope demo --transport tools-ws`: the explorer, with no tools/list
// to ask, offers the demo's own tools and says where they come from.
func TestDemoOverToolsWSExplorerListsTheDemosTools(t *testing.T) {
	r := startTUI(t, "demo", "--transport", "tools-ws")
	r.waitFor(t, "MCP connected · tools-ws · no handshake")
	r.send(t, "e")
	r.waitFor(t, "listed: the demo's tools (this transport has no list)", "analyze", "echo")
	if code := r.quitFromOverlay(t); code != ExitOK {
		t.Fatalf("exit %d; stderr: %s", code, r.errb.String())
	}
}

// On tools-http, the tools the newest recording of the same target in the
// state directory called are the explorer's tools, named by the
// recording; another transport gets none.
func TestRecordedToolsOfTheSameTarget(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	target, err := parseURLTarget("http://127.0.0.1:9/tools", "tools-http")
	if err != nil {
		t.Fatal(err)
	}
	dir, err := recordings.Dir()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := recordings.NewPath(dir, recordTarget(target), time.Now())
	w, err := recordings.Create(path, (&runFlags{}).recordHeader(target), recordings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fetch","arguments":{}}}`,
	} {
		m, err := jsonrpc.Decode(proto.EncJSON, []byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		w.Append(&capture.Frame{Time: time.Now(), Dir: capture.Out, Conn: "http POST 1", Raw: []byte(raw + "\n"), Enc: proto.EncJSON, Msg: m})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	known := recordedTools(target, "")
	if known == nil || !strings.Contains(known.From, "tools called in the recording "+filepath.Base(path)) {
		t.Fatalf("recordedTools = %+v", known)
	}
	var names []string
	for _, tool := range known.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Equal(names, []string{"search", "fetch"}) {
		t.Errorf("tools %q, want search, fetch", names)
	}
	if got := recordedTools(target, path); got != nil {
		t.Errorf("the session's own recording was read: %+v", got)
	}
	target.Transport = "http"
	if got := recordedTools(target, ""); got != nil {
		t.Errorf("a transport with tools/list got recorded tools: %+v", got)
	}
}
