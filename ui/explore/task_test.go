package explore

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Against the demo over HTTP in 2026-07-28: a tools/call of slow_compute
// becomes a task; the waiting view shows "task ID working: …", ctrl+x
// cancels the task with tasks/cancel and the outcome says cancelled. A
// call of ask_name with a name is followed to its greeting.
func TestExploreFollowsAndCancelsTask(t *testing.T) {
	m, r := newModel(t, 120, 24)
	m.host.Sess = screentest.ConnectDemoHTTP(t, m.store)
	x := openExplorerLoaded(t, r)
	openToolForm(r, x, "slow_compute")
	r.Press("ctrl+s")
	r.Until("the task's status", func() bool { return strings.Contains(r.ScreenText(), " working: Computing") })
	if s := r.ScreenText(); !strings.Contains(s, "task ") || !strings.Contains(s, "…") {
		t.Fatalf("waiting view:\n%s", s)
	}
	r.Press("ctrl+x")
	r.Until("the outcome", func() bool { return x.mode == modeOutcome })
	if !x.cancelled {
		t.Errorf("the outcome does not say cancelled:\n%s", r.ScreenText())
	}
	if got := screentest.SentRequests(m.store, mcp.MethodTasksCancel); len(got) != 1 {
		t.Errorf("tasks/cancel sent %d times", len(got))
	}

	r.Press("esc", "esc")
	openToolForm(r, x, "ask_name")
	r.TypeText("Ada")
	r.Press("ctrl+s")
	r.Until("the greeting", func() bool { return x.mode == modeOutcome })
	if s := r.ScreenText(); !strings.Contains(s, "Hello, Ada!") {
		t.Errorf("greet outcome:\n%s", s)
	}
}

// Leaving the waiting view of a call that became a task (esc) stops
// following it: the task is cancelled with tasks/cancel rather than
// polled, unseen, until the session ends.
func TestExploreBackCancelsTask(t *testing.T) {
	m, r := newModel(t, 120, 24)
	m.host.Sess = screentest.ConnectDemoHTTP(t, m.store)
	x := openExplorerLoaded(t, r)
	openToolForm(r, x, "slow_compute")
	r.Press("ctrl+s")
	r.Until("the task's status", func() bool { return strings.Contains(r.ScreenText(), " working: Computing") })
	r.Press("esc")
	r.Until("tasks/cancel, and the follow's end", func() bool {
		return len(screentest.SentRequests(m.store, mcp.MethodTasksCancel)) == 1 && x.mode != modeCalling && !x.task.active()
	})
}

// The TypeScript reference's simulate-research-query requires v1 task
// execution: the explorer asks for a task, follows it (tasks/result) to
// its report and shows the status on the way.
func TestExploreFollowsTSEverythingTask(t *testing.T) {
	t.Parallel()
	m, r := peerModel(t, peertest.TSEverything(t, "stdio"))
	x := openExplorerLoaded(t, r)
	openToolForm(r, x, "simulate-research")
	r.TypeText("python")
	r.Press("ctrl+s")
	r.Until("the task's status", func() bool { return strings.Contains(r.ScreenText(), " working: ") })
	r.Until("the report", func() bool { return x.mode == modeOutcome })
	if s := r.ScreenText(); !strings.Contains(s, "Research Report") {
		t.Fatalf("outcome:\n%s", s)
	}
	if len(screentest.SentRequests(m.store, mcp.MethodTasksResult)) != 1 {
		t.Errorf("tasks/result sent %d times", len(screentest.SentRequests(m.store, mcp.MethodTasksResult)))
	}
}

// openToolForm filters the explorer's list to name and waits for the form
// that enter opens on it.
func openToolForm(r *cmdRunner, x *Explorer, name string) {
	r.Press("/")
	r.TypeText(name)
	r.Press("enter", "enter")
	r.Until("the form", func() bool { return x.mode == modeForm })
}
