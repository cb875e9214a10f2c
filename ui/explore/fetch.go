package explore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/skills"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// maxExploreItems bounds the items one list keeps; the rest are dropped
// with a note, so that a server listing millions cannot exhaust memory.
const maxExploreItems = 10000

// errTooManyItems says a list was cut at maxExploreItems.
var errTooManyItems = fmt.Errorf("the list is longer than %d items; the rest are not shown", maxExploreItems)

// exploreListMsg carries one list fetched with every page.
type exploreListMsg struct {
	gen   int
	tab   exploreTab
	items []json.RawMessage
	hint  mcp.CacheHint // the pages' cache hint (ListAllCached)
	err   error
}

// refresh fetches the lists again: those the server advertises, or every
// list when all is set. Each list arrives in its own message. A dialect
// with no lists is asked nothing (named_tool.go).
func (x *Explorer) refresh(all bool) tea.Cmd {
	x.listGen++
	gen := x.listGen
	if x.fillUnlisted() {
		return nil // the dialect has no lists to ask for
	}
	s, err := x.d.Session()
	var caps map[string]bool
	if err == nil {
		caps = client.Advertised(s.ServerCapabilities())
		if caps != nil {
			caps[mcp.ExtensionSkills] = skills.Advertised(s.ServerCapabilities())
		}
	}
	ctx := x.d.Context()
	var cmds []tea.Cmd
	for t := range tabCount {
		l := &x.lists[t]
		l.err = nil
		switch {
		case err != nil:
			l.state, l.err = listIdle, err
		case !all && caps != nil && !caps[exploreLists[t].capability]:
			l.state = listUnadvertised
		default:
			l.state = listLoading
			cmds = append(cmds, fetchList(ctx, s, gen, t))
		}
	}
	return tea.Batch(cmds...)
}

// fetchList lists every page of one tab's method.
func fetchList(ctx context.Context, s *client.Session, gen int, t exploreTab) tea.Cmd {
	spec := exploreLists[t]
	return func() tea.Msg {
		items, hint, err := s.ListAllCached(ctx, spec.method, spec.field, nil)
		return exploreListMsg{gen: gen, tab: t, items: items, hint: hint, err: err}
	}
}

// listDone shows a fetched list; a list of an older refresh is dropped.
func (x *Explorer) listDone(msg exploreListMsg) {
	if msg.gen != x.listGen || msg.tab < 0 || msg.tab >= tabCount {
		return
	}
	l := &x.lists[msg.tab]
	l.state, l.err = listLoaded, msg.err
	l.hint, l.fetched = msg.hint, now()
	items := msg.items
	if len(items) > maxExploreItems {
		items = items[:maxExploreItems]
		l.err = errors.Join(l.err, errTooManyItems)
	}
	entries := make([]entry, len(items))
	for i, raw := range items {
		entries[i] = decodeEntry(msg.tab, raw)
	}
	l.setItems(entries)
	if msg.tab == tabTools {
		x.markWizards()
		x.markHeaders()
	}
}

// Listed returns the message that gives x the items a list method
// (tools/list, resources/list, resources/templates/list, prompts/list)
// answered, as its own fetch would: lists got elsewhere, such as a
// recording's, shown in the explorer. nil for any other method.
func Listed(x *Explorer, method string, items []json.RawMessage) tea.Msg {
	for t := range tabCount {
		if exploreLists[t].method == method {
			return exploreListMsg{gen: x.listGen, tab: t, items: items}
		}
	}
	return nil
}
