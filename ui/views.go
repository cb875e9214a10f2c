package ui

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/ui/findingsview"
	"github.com/mcpscope/mcpscope/ui/logsview"
	"github.com/mcpscope/mcpscope/ui/subsview"
	"github.com/mcpscope/mcpscope/ui/tasksview"
)

// viewBooks are the books of the views that list what the capture holds
// of one kind: tasks, subscriptions, server logs and findings. The index
// feeds them every frame it reads, so a view opened late shows all that
// came before.
type viewBooks struct {
	tasks    *tasksview.Book
	subs     *subsview.Book
	logs     *logsview.Book
	findings *findingsview.Book
}

// newViewBooks returns empty books.
func newViewBooks() viewBooks {
	b := viewBooks{
		tasks:    tasksview.NewBook(),
		subs:     subsview.NewBook(),
		logs:     logsview.NewBook(),
		findings: findingsview.NewBook(),
	}
	b.findings.DeferOver(inlineVerdictBytes) // judged in a tea.Cmd (tool_verdicts.go)
	return b
}

// note reads one frame into every book.
func (v *viewBooks) note(f *capture.Frame) {
	v.tasks.Note(f)
	v.subs.Note(f)
	v.logs.Note(f)
	v.findings.Note(f)
}

// openTasks opens the Tasks view.
func (m *Model) openTasks() tea.Cmd {
	return m.openOverlay(tasksview.Open(driver{m}, m.idx.views.tasks))
}

// openSubscriptions opens the Subscriptions view.
func (m *Model) openSubscriptions() tea.Cmd {
	return m.openOverlay(subsview.Open(driver{m}, m.idx.views.subs))
}

// openLogs opens the Log view.
func (m *Model) openLogs() tea.Cmd {
	return m.openOverlay(logsview.Open(driver{m}, m.idx.views.logs))
}

// openFindings opens the Findings view.
func (m *Model) openFindings() tea.Cmd {
	return m.openOverlay(findingsview.Open(driver{m}, m.idx.views.findings))
}

// linkedFrames returns the frames the l key walks from f, in Seq order:
// those of its call (linkedSeqs) and, when f belongs to a task (the
// tools/call that started it and its answer, tasks/get and its answer, a
// status notification, a question the task asks), every frame of that
// task.
func (x *index) linkedFrames(f *capture.Frame) []uint64 {
	var seqs []uint64
	if c, ok := x.lookup(f); ok {
		seqs = x.linkedSeqs(c)
	}
	task := x.views.tasks.Linked(f.Seq)
	if len(task) == 0 {
		return seqs
	}
	seqs = append(slices.Clone(seqs), task...)
	slices.Sort(seqs)
	return slices.Compact(seqs)
}
