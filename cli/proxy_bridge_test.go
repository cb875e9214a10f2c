package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/internal/testkit/rectest"
	"github.com/mcpscope/mcpscope/proto"
)

// runInspector runs the Inspector CLI with args and returns its standard
// output.
func runInspector(t *testing.T, args ...string) string {
	t.Helper()
	return peertest.RunInspector(t, args...)
}

// The Inspector CLI as a stdio host launches `mcpscope proxy URL`, the
// stdio bridge, and gets the answers it gets from the server itself: over
// Streamable HTTP and, with --transport sse, legacy HTTP+SSE. The
// recording holds what the host wrote and what it was given.
func TestProxyBridgeInspector(t *testing.T) {
	bin := builtBinary(t)
	for _, c := range peertest.InspectorHTTPCases {
		t.Run(c.Name, func(t *testing.T) {
			peer := c.Start(t)
			for i, call := range [][]string{{"--method", "tools/list"}, c.Call} {
				rec := filepath.Join(t.TempDir(), "bridge.jsonl")
				direct := runInspector(t, append([]string{peer.URL, "--transport", c.Transport}, call...)...)
				through := runInspector(t, append(call, "--", bin, "proxy", "--name", "bridged", "--record", rec, "--transport", c.Transport, peer.URL)...)
				if direct != through {
					t.Fatalf("%s: through the bridge the host got\n%s\nwithout it\n%s", call[1], through, direct)
				}
				store, _ := rectest.Replay(t, rec)
				var out, in []string
				for _, f := range store.Window(0, store.Len()) {
					if f.Chan.Kind != capture.Control || f.Enc != proto.EncJSON { // not the SSE events that carry no message
						continue
					}
					if f.Dir == capture.Out {
						out = append(out, string(f.Raw))
					} else {
						in = append(in, string(f.Raw))
					}
				}
				want := []string{`"tools/list"`, `"tools/call"`}[i]
				if !strings.Contains(strings.Join(out, "\n"), want) || !strings.Contains(strings.Join(out, "\n"), `"initialize"`) {
					t.Errorf("the host's lines recorded miss %s or initialize:\n%s", want, strings.Join(out, "\n"))
				}
				answer := []string{`"tools":[`, `"content":[`}[i]
				if !strings.Contains(strings.Join(in, "\n"), answer) {
					t.Errorf("the lines to the host recorded miss %s", answer)
				}
				for _, l := range in {
					if strings.ContainsAny(l, "\r\n") {
						t.Errorf("a line to the host spans lines: %q", l)
					}
				}
			}
		})
	}
}
