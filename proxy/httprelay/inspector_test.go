package httprelay

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// The Inspector CLI, a real host, gets through the relay the answers it
// gets from the server itself, on Streamable HTTP and on the legacy
// HTTP+SSE transport, against the TypeScript and the Go SDK servers.
func TestProxyHTTPInspector(t *testing.T) {
	for _, c := range peertest.InspectorHTTPCases {
		t.Run(c.Name, func(t *testing.T) {
			peer := c.Start(t)
			p := startRelay(t, peer.URL, Options{})
			for _, call := range [][]string{{"--method", "tools/list"}, c.Call} {
				direct := peertest.RunInspector(t, append([]string{peer.URL, "--transport", c.Transport}, call...)...)
				through := peertest.RunInspector(t, append([]string{p.URL, "--transport", c.Transport}, call...)...)
				if direct != through {
					t.Fatalf("%s: through the proxy the host got\n%s\nwithout it\n%s", call[1], through, direct)
				}
			}
			frames := p.frames(t)
			out, in := messages(frames, capture.Out), messages(frames, capture.In)
			for _, want := range []string{`"initialize"`, `"tools/list"`, `"tools/call"`} {
				if !holds(out, want) {
					t.Errorf("no host→server frame holds %s", want)
				}
			}
			if !holds(in, `"tools"`) || !holds(in, `"content"`) {
				t.Errorf("the server→host frames miss the tools/list or tools/call answer")
			}
		})
	}
}

// holds says whether a frame's bytes hold s.
func holds(frames []*capture.Frame, s string) bool {
	for _, f := range frames {
		if strings.Contains(string(f.Raw), s) {
			return true
		}
	}
	return false
}
