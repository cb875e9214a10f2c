package explore

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/subsview"
)

// subscribeKey subscribes to the selected resource, or to the URI of the
// read shown (a template expanded), and unsubscribes a subscribed one.
var subscribeKey = key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "subscribe / unsubscribe"))

// subscribedMark is the mark of a resource the live session is
// subscribed to.
const subscribedMark = "● "

// label is an item's label after its mark.
func (l *entryList) label(e *entry) string {
	if l.mark != nil {
		return l.mark(e) + e.label()
	}
	return e.label()
}

// markSubscribed marks the resources the live session is subscribed to.
func (x *Explorer) markSubscribed() {
	x.lists[tabResources].mark = func(e *entry) string {
		if subsview.Subscribed(x.d, e.uri) {
			return subscribedMark
		}
		return ""
	}
}

// toggleSubscription subscribes to uri or unsubscribes from it.
func (x *Explorer) toggleSubscription(uri string) tea.Cmd {
	if uri == "" {
		return errorCmd("s: no resource URI to subscribe to")
	}
	return subsview.Toggle(x.d, uri)
}

// subscribeOutcomeKey handles s on the answer of a read: the URI read
// (a template expanded) is subscribed to, or unsubscribed from.
func (x *Explorer) subscribeOutcomeKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if !key.Matches(msg, subscribeKey) {
		return nil, false
	}
	if x.method != mcp.MethodResourcesRead {
		return errorCmd("s subscribes to the resource of a read: this answer is not one"), true
	}
	return x.toggleSubscription(x.subject), true
}
