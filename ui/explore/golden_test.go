package explore

import (
	"encoding/json"
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// fixtureExplorer opens an explorer (without a connection) over the
// fixture lists, sized w×h.
func fixtureExplorer(t *testing.T, w, h int) (*Model, *Explorer) {
	t.Helper()
	m, _ := newModel(t, w, h)
	x := New(m.host, &m.interactive)
	x.SetSize(w, m.bodyH())
	m.overlay = x
	for method, text := range screentest.ListFixture {
		var items []json.RawMessage
		if err := json.Unmarshal([]byte(text), &items); err != nil {
			t.Fatal(err)
		}
		m.Update(Listed(x, method, items))
	}
	return m, x
}

func TestGoldenExploreTabs(t *testing.T) {
	m, x := fixtureExplorer(t, 110, 14)
	for tab, name := range []string{"explore_tools", "explore_resources", "explore_templates", "explore_prompts"} {
		x.tab = exploreTab(tab)
		goldentest.CheckPlain(t, name, x.Render(100, 9))
	}
	x.tab = tabTools
	press(m, "/")
	for _, r := range "sum" {
		press(m, string(r))
	}
	goldentest.CheckPlain(t, "explore_filtering", x.Render(80, 6))
	press(m, "enter")
	goldentest.CheckPlain(t, "explore_filtered", x.Render(80, 6))
	x.lists[tabTemplates].err = &client.RPCError{Method: "resources/templates/list", Err: &jsonrpc.Error{Code: -32601, Message: "Method not found"}}
	x.lists[tabPrompts].state = listUnadvertised
	x.tab = tabTemplates
	goldentest.CheckPlain(t, "explore_list_error", x.Render(110, 4))
	x.tab = tabPrompts
	goldentest.CheckPlain(t, "explore_unadvertised", x.Render(110, 2))
}

func TestGoldenExploreForms(t *testing.T) {
	_, x := fixtureExplorer(t, 90, 30)
	x.target = entry{tab: tabTools, name: "configure", desc: "Configure a build"}
	x.openForm(json.RawMessage(`{"type":"object","properties":{
		"name":{"type":"string","description":"project name"},
		"jobs":{"type":"integer","minimum":1,"default":4},
		"ratio":{"type":"number"},
		"release":{"type":"boolean","default":true},
		"profile":{"type":"string","enum":["dev","prod"]},
		"tags":{"type":"array","items":{"type":"string"}},
		"owner":{"type":"object","properties":{"email":{"type":"string","format":"email"}}}},
		"required":["name"]}`), "tools/call configure")
	goldentest.CheckPlain(t, "explore_form", x.Render(90, 28))

	_, x = fixtureExplorer(t, 90, 30)
	x.tab = tabTemplates
	x.lists[tabTemplates].cursor = 1
	x.open(x.lists[tabTemplates].items[1])
	for _, r := range "my org" {
		x.Update(keytest.Press(string(r)))
	}
	goldentest.CheckPlain(t, "explore_template_form", x.Render(90, 16))
}

func TestGoldenExploreOutcome(t *testing.T) {
	_, x := fixtureExplorer(t, 90, 30)
	x.showAnswer("prompts/get", "args-prompt", json.RawMessage(`{"description":"weather","messages":[
		{"role":"user","content":{"type":"text","text":"What's weather in Oslo?"}}]}`), nil)
	goldentest.CheckPlain(t, "explore_outcome", x.Render(70, 16))
	x.showAnswer("tools/call", "get-sum", nil, &client.RPCError{Method: "tools/call",
		Err: &jsonrpc.Error{Code: -32602, Message: "Invalid arguments", Data: json.RawMessage(`{"field":"a"}`)}})
	goldentest.CheckPlain(t, "explore_outcome_error", x.Render(70, 10))
}
