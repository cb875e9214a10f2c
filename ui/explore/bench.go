package explore

import (
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/bench"
)

// benchTool opens the bench of tool e (key b): at once with the
// arguments of its last call from the explorer (none when it has not
// been called) when its schema requires none; otherwise through its
// tools/call form, filled with those arguments, whose submit starts the
// bench instead of calling the tool.
func (x *Explorer) benchTool(e entry) tea.Cmd {
	x.target, x.tmpl, x.note, x.info = e, nil, "", ""
	if e.bad != "" {
		return nil
	}
	if !requiresArguments(e.schema) {
		return x.openBench(e, x.last[e.key()])
	}
	cmd := x.openToolForm(e)
	if x.mode == modeForm {
		x.benching = true
		x.info = "the arguments the bench calls " + e.name + " with: submitting opens the bench"
	}
	return cmd
}

// requiresArguments reports whether an input schema has a required
// member other than an empty list: one that is no list of strings
// requires arguments too (the form shows what the schema asks), while a
// schema that is no JSON object requires none the bench knows.
func requiresArguments(schema json.RawMessage) bool {
	var s struct {
		Required json.RawMessage `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return false
	}
	var names []json.RawMessage
	if json.Unmarshal(s.Required, &names) == nil {
		return len(names) > 0
	}
	return len(s.Required) > 0
}

// openBench shows the bench of tool e called with args.
func (x *Explorer) openBench(e entry, args json.RawMessage) tea.Cmd {
	x.form, x.benching = nil, false
	x.bench = bench.New(x.d, bench.ToolCall(e.name, args), x.benchRun)
	x.bench.SetSize(x.w, x.h)
	x.mode = modeBench
	return nil
}

// updateBench gives a message to the open bench; the explorer's own
// messages, and the theme's change that its inputs follow, are left to
// the explorer (handled false). When the bench
// closes, the explorer is back on its list.
func (x *Explorer) updateBench(msg tea.Msg) (cmd tea.Cmd, handled bool) {
	switch msg.(type) {
	case exploreListMsg, exploreAnswerMsg, DiscoveredMsg, waitingTickMsg, tea.BackgroundColorMsg:
		return nil, false
	}
	cmd, closed := x.bench.Update(msg)
	if closed {
		x.backToList()
	}
	return cmd, true
}

// Bench is the bench open in the explorer, or nil.
func (x *Explorer) Bench() *bench.Bench { return x.bench }

// SetBenchRunner makes run the engine of the benches the explorer opens
// (nil: load.Run), for tests that drive the snapshots themselves.
func (x *Explorer) SetBenchRunner(run bench.Runner) { x.benchRun = run }
