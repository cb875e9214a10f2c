package tuie2e

import (
	"regexp"
	"testing"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
)

var (
	// taskWorking is the explorer's waiting view following a task.
	taskWorking = regexp.MustCompile(`task [0-9A-Z]+ working: Computing, [\d.]+ s left`)
	// taskRow is the Tasks view's row of the completed slow_compute: its
	// age, its id cut in the middle and the call that started it.
	taskRow = regexp.MustCompile(`completed +\d+(?:\.\d)?s +[0-9A-Z]+…[0-9A-Z]+ +#(\d+) slow_compute +Done`)
	// taskGet is the detail pane on the task's first request after its handle: a tasks/get,
	// or the subscriptions/listen that asks for its pushed status.
	taskGet = regexp.MustCompile(`request · id \d+ · (tasks/get|subscriptions/listen)`)
)

// testTasksDemo calls the demo's slow_compute from the explorer over
// Streamable HTTP, where the demo answers it with a task (2026-07-28): the
// explorer follows the task to its result; T lists it completed with its
// age and the call that started it, enter shows its detail, l filters the
// traffic to its call; there l walks the frames shown, and once the filter
// is cleared, on to the task's tasks/get.
func testTasksDemo(t *testing.T, bin string) {
	p := startPane(t, bin, screentest.ServeDemoHTTP(t, demo.Options{}))
	p.waitFor("MCP connected · Streamable HTTP · 2026-07-28")
	p.keys("e")
	p.waitFor("interactive server: enter starts a [wizard] tool")
	p.filterTools("slow_compute")
	p.keys("Enter")
	p.waitFor("tools/call slow_compute", "seconds")
	p.keys("Tab") // past pollIntervalMs, the first field
	p.keys("BSpace")
	p.typeText("2")
	p.keys("C-s")
	p.waitMatch(taskWorking)
	p.waitFor("tools/call slow_compute · answer", "Computed for 2 s")
	p.escapeUntilGone("Explorer ·")

	p.keys("T")
	id := taskRow.FindStringSubmatch(p.waitMatch(taskRow))[1]
	p.waitFor("Tasks (1)")
	p.keys("Enter")
	p.waitFor("state      completed", "call       tools/call slow_compute (id "+id+")", "wire       v2 (2026-07-28, SEP-2663)")
	p.keys("Escape")
	p.waitMatch(taskRow)
	p.keys("l")
	p.waitFor(`filter "#`+id+`" · 2 matches`, "result · id "+id+" · tools/call slow_compute")

	// The keys are the traffic's now: l walks the frames the filter shows,
	// from the handle back to the call; with the filter cleared, on from
	// the call past its handle to the task's first request.
	p.keys("l")
	call := "request · id " + id + " · tools/call slow_compute"
	p.waitFor(call)
	p.escapeUntilGone(`filter "#` + id + `"`)
	p.waitFor(call)
	p.keys("l")
	p.waitFor("result · id " + id + " · tools/call slow_compute")
	p.keys("l")
	p.waitMatch(taskGet)
	p.keys("q")
	p.waitGone()
}
