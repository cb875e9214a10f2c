package explore

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// sentHeads are the HTTP request heads the session sent, as captured.
func sentHeads(st *capture.Store) []string {
	var out []string
	for _, f := range st.Window(1, st.Len()) {
		if f.Chan.Kind == capture.HTTP && f.Dir == capture.Out {
			out = append(out, string(f.Raw))
		}
	}
	return out
}

// headsHolding counts the request heads that hold part.
func headsHolding(st *capture.Store, part string) int {
	n := 0
	for _, h := range sentHeads(st) {
		if strings.Contains(h, part) {
			n++
		}
	}
	return n
}

// Against the demo over HTTP in 2026-07-28: route_clash, whose
// x-mcp-header annotations are invalid, is tagged in the Tools list and
// its preview says why; enter or f on it sends nothing but shows the
// reason and asks; esc goes back; enter there insists, and the call goes
// out, without Mcp-Param headers, and is answered. route is not asked
// about, and its call carries its Mcp-Param header.
func TestExploreInsistsOnInvalidToolHeaders(t *testing.T) {
	m, r := newModel(t, 120, 24)
	m.host.Sess = screentest.ConnectDemoHTTP(t, m.store)
	st := m.store
	x := openExplorerLoaded(t, r)
	r.Press("/")
	r.TypeText("route")
	r.Press("enter")
	if got := names(x.list()); len(got) != 2 || got[0] != "route" || got[1] != "route_clash" {
		t.Fatalf("filtered tools %v", got)
	}
	r.Press("down")
	goldentest.CheckPlain(t, "explore_param_tools", x.Render(120, 12))

	for _, k := range []string{"enter", "f"} {
		r.Press(k)
		if x.mode != modeInsist {
			t.Fatalf("%s on route_clash: mode %d, want the question", k, x.mode)
		}
		if k == "f" {
			goldentest.CheckPlain(t, "explore_insist", x.Render(80, 9))
		}
		r.Press("esc")
		if x.mode != modeList {
			t.Fatalf("esc on the question: mode %d", x.mode)
		}
	}
	if calls := screentest.SentRequests(st, mcp.MethodToolsCall); len(calls) != 0 {
		t.Fatalf("route_clash was called before the user insisted: %s", calls)
	}

	r.Press("f", "enter")
	if x.mode != modeForm || !strings.Contains(r.ScreenText(), "tools/call route_clash") {
		t.Fatalf("insisting: mode %d\n%s", x.mode, r.ScreenText())
	}
	r.TypeText("acme")
	r.Press("ctrl+s")
	r.Until("the answer", func() bool { return x.mode == modeOutcome })
	if s := r.ScreenText(); !strings.Contains(s, "tools/call route_clash · answer") || !strings.Contains(s, `org=\"acme\"`) {
		t.Errorf("route_clash outcome:\n%s", s)
	}
	if n := headsHolding(st, "Mcp-Param-"); n != 0 {
		t.Errorf("the insisted call sent Mcp-Param headers: %q", sentHeads(st))
	}

	r.Press("esc", "up", "f")
	if x.mode != modeForm || !strings.Contains(r.ScreenText(), "tools/call route") {
		t.Fatalf("f on route: mode %d\n%s", x.mode, r.ScreenText())
	}
	r.Press("ctrl+s") // region is required: the form goes to it
	r.TypeText("eu-west1")
	r.Press("ctrl+s")
	r.Until("the answer", func() bool { return x.mode == modeOutcome })
	if s := r.ScreenText(); !strings.Contains(s, `region=\"eu-west1\"`) || headsHolding(st, "Mcp-Param-Region: eu-west1\r\n") != 1 {
		t.Errorf("route: %q\n%s", sentHeads(st), s)
	}
}
