package cli

import (
	"context"
	"strings"
	"testing"
)

// The HTTP demos serve the demo in this process on the endpoint each
// transport speaks, and mcpscope's own client talks to each.
func TestHTTPDemoTargets(t *testing.T) {
	for _, transport := range []string{"http", "sse", "tools-http"} {
		target, stop, err := startHTTPDemo(context.Background(), transport)
		if err != nil {
			t.Fatalf("%s: %v", transport, err)
		}
		r := mcpscope(t, "call", "--transport", transport, "tools/call", callTool(t, "echo", map[string]any{"message": "hi"}), target.URL.String())
		if err := stop(); err != nil {
			t.Errorf("%s: stopping: %v", transport, err)
		}
		if got := toolText(t, r); !strings.Contains(got, "hi") {
			t.Errorf("%s: echo %q", transport, got)
		}
	}
}
