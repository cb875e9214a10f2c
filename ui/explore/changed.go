package explore

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// changedLists are the explorer lists a server's list_changed
// notification makes stale; resources/list_changed covers the templates
// too, since the spec has no notification of its own for them.
var changedLists = map[string][]exploreTab{
	mcp.MethodNotifyToolsListChanged: {tabTools},
	mcp.MethodNotifyResourcesChanged: {tabResources, tabTemplates},
	mcp.MethodNotifyPromptsChanged:   {tabPrompts},
}

// ListChanges collects the lists servers said changed since the explorer
// last reloaded them, one bit per tab.
type ListChanges uint8

// Note records a received list_changed notification.
func (c *ListChanges) Note(f *capture.Frame) {
	if f.Dir != capture.In || f.Msg == nil || f.Msg.Kind() != jsonrpc.KindNotification {
		return
	}
	for _, t := range changedLists[f.Msg.Method] {
		*c |= 1 << t
	}
}

// take returns the changed tabs and forgets them.
func (c *ListChanges) take() []exploreTab {
	var tabs []exploreTab
	for t := range tabCount {
		if *c&(1<<t) != 0 {
			tabs = append(tabs, t)
		}
	}
	*c = 0
	return tabs
}

// ReloadChanged takes the lists c says the server changed and hands them
// to s when it is an explorer, which fetches them again; with no explorer
// open they are simply fetched the next time one opens.
func ReloadChanged(s screen.Screen, c *ListChanges) tea.Cmd {
	tabs := c.take()
	if x, ok := s.(*Explorer); ok && len(tabs) > 0 {
		return x.reload(tabs)
	}
	return nil
}

// reload fetches tabs again, keeping the other lists and their fetches in
// flight, and says why in the status bar.
func (x *Explorer) reload(tabs []exploreTab) tea.Cmd {
	s, err := x.d.Session()
	if err != nil {
		return nil
	}
	ctx := x.d.Context()
	var cmds []tea.Cmd
	for _, t := range tabs {
		l := &x.lists[t]
		l.state, l.err = listLoading, nil
		cmds = append(cmds, fetchList(ctx, s, x.listGen, t))
	}
	x.d.Note("the server changed its lists (list_changed): reloading them")
	return tea.Batch(cmds...)
}
