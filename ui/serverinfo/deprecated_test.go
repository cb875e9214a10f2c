package serverinfo

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// In a 2026-07-28 session the view labels the server's logging capability
// deprecated (SEP-2577); a 2025-11-25 session has no such label; the
// legacy HTTP+SSE transport is labelled in any session.
func TestServerInfoLabelsDeprecations(t *testing.T) {
	caps := json.RawMessage(`{"logging":{},"tools":{}}`)
	got := strings.Join(deprecations(Facts{Version: mcp.ProtocolVersion20260728, Capabilities: caps}), "\n")
	if !strings.Contains(got, "capabilities logging: deprecated in 2026-07-28, still working") || !strings.Contains(got, "SEP-2577") {
		t.Errorf("2026-07-28: %q", got)
	}
	if got := deprecations(Facts{Version: mcp.LatestLegacy, Capabilities: caps}); got != nil {
		t.Errorf("2025-11-25: %q", got)
	}
	if got := deprecations(Facts{Version: mcp.ProtocolVersion20260728, Capabilities: json.RawMessage(`{"tools":{}}`)}); got != nil {
		t.Errorf("no deprecated capability: %q", got)
	}
	sse := deprecations(Facts{Version: "2024-11-05", Link: client.LinkState{Transport: mcp.TransportHTTPSSE}})
	if len(sse) != 1 || !strings.Contains(sse[0], "HTTP+SSE") {
		t.Errorf("HTTP+SSE: %q", sse)
	}
}
