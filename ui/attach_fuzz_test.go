package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proxy"
)

// FuzzProxyLabel reads any bytes as a proxy's mark (a recording holds
// them): the label is one line, safe to print, and nothing panics.
func FuzzProxyLabel(f *testing.F) {
	for _, s := range []string{
		`{"proxy":"paused","seq":3,"held":1,"method":"tools/call","tool":"echo","rule":"method=tools/call"}`,
		`{"proxy":"kept","id":"\"mcpscope-1\"","method":"tools/list"}`,
		`{"proxy":"missed","note":"12"}`,
		`{"proxy":"fault","note":"\u001b]0;x\u0007"}`,
		`{"proxy":""}`, `[]`, `nul`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		fr := &capture.Frame{Chan: capture.Channel{Kind: capture.Proxy}, Raw: raw, Size: len(raw)}
		label := proxyLabel(fr)
		if strings.Contains(label, "\n") || termtext.Line(label) != label {
			t.Fatalf("label %q is not one safe line", label)
		}
		var x index
		if mk, ok := proxy.ParseMark(fr); ok {
			x.injected.see(mk)
		}
	})
}
