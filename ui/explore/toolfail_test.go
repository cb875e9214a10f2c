package explore

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
)

// A tools/call answered with a result that is nonetheless a failure
// (isError, structuredContent its outputSchema refuses or lacks) shows as
// failed, with the reason; the status line says the tool failed.
func TestExploreToolFailureOutcome(t *testing.T) {
	cases := []struct{ tool, want string }{
		{"read_file", `tool "read_file" failed (isError): ENOENT: no such file`},
		{"weather", `tool "weather" returned structuredContent that fails its outputSchema`},
		{"forecast", `tool "forecast" declares an outputSchema but its result has no structuredContent`},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			m, r := newModel(t, 120, 40)
			_, m.host.Sess = screentest.ConnectToolPeer(t, m.store)
			x := openExplorerLoaded(t, r)
			r.Press("/")
			r.TypeText(tc.tool)
			r.Press("enter", "enter", "ctrl+s")
			r.Until("the answer", func() bool { return x.mode == modeOutcome })
			s := r.ScreenText()
			if !x.out.Failed || !strings.Contains(s, "tools/call "+tc.tool+" · failed") || !strings.Contains(s, tc.want) {
				t.Errorf("outcome (failed %v):\n%s", x.out.Failed, s)
			}
			r.Until("the status note", func() bool { return m.status.message != "" })
			if !strings.Contains(m.status.message, tc.want) {
				t.Errorf("status %q, want %q", m.status.message, tc.want)
			}
		})
	}
	m, r := newModel(t, 120, 40)
	_, m.host.Sess = screentest.ConnectToolPeer(t, m.store)
	x := openExplorerLoaded(t, r)
	r.Press("/")
	r.TypeText("echo")
	r.Press("enter", "enter", "ctrl+s")
	r.Until("the answer", func() bool { return x.mode == modeOutcome })
	if s := r.ScreenText(); x.out.Failed || !strings.Contains(s, "tools/call echo · answer") {
		t.Errorf("a plain result reads as failed:\n%s", s)
	}
}
