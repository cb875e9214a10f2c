package explore

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// b on a tool of the demo benches it through the session: a tool with a
// required argument gets its tools/call form first, a tool with none
// opens the bench at once; esc stops and goes back to the list.
func TestExploreBenchTool(t *testing.T) {
	m, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	x.SetBenchRunner(screentest.LoadInTurn(5))
	r.Press("/")
	r.TypeText("echo")
	r.Press("enter", "b")
	if x.mode != modeForm || !strings.Contains(r.ScreenText(), "submitting opens the bench") {
		t.Fatalf("b on echo (message required): mode %d\n%s", x.mode, r.ScreenText())
	}
	r.TypeText("load")
	r.Press("ctrl+s")
	if x.mode != modeBench || !strings.Contains(r.ScreenText(), `Bench · tools/call echo {"message":"load"}`) {
		t.Fatalf("submitting the form: mode %d\n%s", x.mode, r.ScreenText())
	}
	if n := len(screentest.SentRequests(st, mcp.MethodToolsCall)); n != 0 {
		t.Fatalf("%d tools/call sent before the run", n)
	}
	r.Press("enter")
	r.Until("the run's end", func() bool { return strings.Contains(r.ScreenText(), "done in") })
	if s := r.ScreenText(); !strings.Contains(s, "started 5 · completed 5") || !strings.Contains(s, "errors     none") {
		t.Errorf("after the run:\n%s", s)
	}
	calls := screentest.SentRequests(st, mcp.MethodToolsCall)
	if len(calls) != 5 || !strings.Contains(string(calls[4]), `"arguments":{"message":"load"}`) {
		t.Errorf("the run sent %d tools/call: %s", len(calls), calls)
	}
	r.Press("esc")
	if x.mode != modeList || m.overlay == nil {
		t.Fatalf("esc on the bench: mode %d, overlay %v", x.mode, m.overlay)
	}

	r.Press("/")
	r.TypeText("list_templates")
	r.Press("enter", "b")
	if x.mode != modeBench || !strings.Contains(r.ScreenText(), "Bench · tools/call list_templates {}") {
		t.Fatalf("b on list_templates (no argument required): mode %d\n%s", x.mode, r.ScreenText())
	}
	r.Press("esc")
	r.Press("2", "b")
	r.Until("b on the resources says why it does nothing", func() bool {
		return strings.Contains(m.status.message, "b: the bench is of a tool")
	})
}
