package explore

import (
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// A list_changed notification from the server makes the open explorer
// fetch that list again (resources/list_changed: resources and templates),
// and leaves the other lists alone.
func TestExploreReloadsOnListChanged(t *testing.T) {
	_, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	tools := len(screentest.SentRequests(st, mcp.MethodToolsList))
	prompts := len(screentest.SentRequests(st, mcp.MethodPromptsList))
	resources := len(screentest.SentRequests(st, mcp.MethodResourcesList))

	for _, method := range []string{mcp.MethodNotifyToolsListChanged, mcp.MethodNotifyResourcesChanged} {
		st.Append(&capture.Frame{Time: time.Now(), Dir: capture.In, Conn: "wt", Chan: capture.Channel{Kind: capture.Control},
			Msg: screentest.Notification(t, method, nil)})
	}
	r.Send(refreshMsg{at: time.Now()})
	r.Until("the changed lists reloaded", func() bool {
		return x.lists[tabTools].state == listLoaded && x.lists[tabResources].state == listLoaded &&
			len(screentest.SentRequests(st, mcp.MethodToolsList)) == tools+1
	})
	if got := len(screentest.SentRequests(st, mcp.MethodResourcesList)); got != resources+1 {
		t.Errorf("resources/list sent %d times, want %d", got, resources+1)
	}
	if got := len(screentest.SentRequests(st, mcp.MethodPromptsList)); got != prompts {
		t.Errorf("prompts/list sent again (%d, was %d) though it did not change", got, prompts)
	}
	if len(x.lists[tabTools].items) == 0 {
		t.Error("the reloaded tools list is empty")
	}
	// A notification the client sent itself changes nothing.
	st.Append(&capture.Frame{Time: time.Now(), Dir: capture.Out, Conn: "wt", Chan: capture.Channel{Kind: capture.Control},
		Msg: screentest.Notification(t, mcp.MethodNotifyPromptsChanged, nil)})
	r.Send(refreshMsg{at: time.Now()})
	if x.lists[tabPrompts].state != listLoaded {
		t.Errorf("an outgoing list_changed reloaded the prompts")
	}
}
