package look

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// structuredContent of 5 MiB is not drawn twice (the result JSON holds
// it); one nested past what a decoder follows says it could not be read.
func TestOutcomeStructuredHostileSizes(t *testing.T) {
	st := NewStyles(true)
	big := `{"s":"` + strings.Repeat("x", 5<<20) + `"}`
	o := NewCheckedOutcome(mcp.MethodToolsCall, json.RawMessage(`{"content":[],"structuredContent":`+big+`}`), nil, mcp.DialectMCP, &st,
		json.RawMessage(`{"type":"object"}`))
	body := ansi.Strip(o.Body)
	if head, _, _ := strings.Cut(body, "── result JSON ──"); !strings.Contains(head, "5.0 MiB of JSON: see the result JSON below") ||
		!strings.Contains(head, "valid against outputSchema") || len(head) > 4<<10 {
		t.Errorf("big: %.600s", head)
	}
	deep := strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000)
	o = NewOutcome(mcp.MethodToolsCall, json.RawMessage(`{"content":[],"structuredContent":`+deep+`}`), nil, mcp.DialectMCP, &st)
	if body := ansi.Strip(o.Body); !strings.Contains(body, "structuredContent could not be read") {
		t.Errorf("deep: %.600s", body)
	}
}

// A read result's UI resource shows its CSP and permissions, escaped, and
// its cache hint, above the text.
func TestOutcomeReadAppAndCacheHint(t *testing.T) {
	st := NewStyles(true)
	res := json.RawMessage(`{"contents":[{"uri":"ui://w","mimeType":"text/html;profile=mcp-app","text":"<p>x</p>",
		"_meta":{"ui":{"csp":{"connectDomains":["https://a.example\u001b[2J"]},"permissions":{"camera":{}}}}}],
		"ttlMs":0,"cacheScope":"private"}`)
	body := ansi.Strip(NewOutcome(mcp.MethodResourcesRead, res, nil, mcp.DialectMCP, &st).Body)
	head, _, _ := strings.Cut(body, "<p>x</p>")
	for _, want := range []string{"── app ui://w ──", `app csp connect: https://a.example\x1b[2J`, "app permissions: camera", "stale at once, private"} {
		if !strings.Contains(head, want) {
			t.Errorf("no %q above the text:\n%s", want, body)
		}
	}
}
