package ui

import (
	"encoding/json"
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
)

// exploreFixture are list items as servers send them, one list per tab.
var exploreFixture = [tabCount]string{
	tabTools: `[
		{"name":"echo","title":"Echo Tool","description":"Echoes back the input string","inputSchema":{"type":"object"},
		 "annotations":{"readOnlyHint":true,"idempotentHint":true}},
		{"name":"delete_file","description":"Deletes a file\nfor good","annotations":{"readOnlyHint":false,"destructiveHint":true}},
		{"name":"search","description":"Search the web","annotations":{"openWorldHint":true}},
		{"name":"get-sum","description":"Returns the sum of two numbers"},
		"not an object"]`,
	tabResources: `[
		{"uri":"demo://resource/static/document/architecture.md","name":"architecture.md","mimeType":"text/markdown",
		 "description":"Static document file exposed from /docs: architecture.md"},
		{"uri":"file:///srv/logo.png","name":"logo","title":"The logo","mimeType":"image/png"}]`,
	tabTemplates: `[
		{"uriTemplate":"demo://resource/dynamic/text/{resourceId}","name":"Dynamic Text Resource","mimeType":"text/plain",
		 "description":"Plaintext dynamic resource fabricated from the {resourceId} variable"},
		{"uriTemplate":"https://api.example.com/repos/{owner}/{repo}/issues{?state,labels}","name":"issues"}]`,
	tabPrompts: `[
		{"name":"args-prompt","title":"Arguments Prompt","description":"A prompt with two arguments, one required and one optional",
		 "arguments":[{"name":"city","description":"Name of the city","required":true},{"name":"state","description":"Name of the state"}]},
		{"name":"simple-prompt","description":"A prompt without arguments"}]`,
}

// fixtureExplorer opens an explorer (without a connection) over the
// fixture lists, sized w×h.
func fixtureExplorer(t *testing.T, w, h int) (*Model, *explorer) {
	t.Helper()
	m := newTestModel(t, sampleStore(t), w, h)
	x := newExplorer(driver{m})
	m.openOverlay(x)
	for tab, text := range exploreFixture {
		var items []json.RawMessage
		if err := json.Unmarshal([]byte(text), &items); err != nil {
			t.Fatal(err)
		}
		m.Update(exploreListMsg{gen: x.listGen, tab: exploreTab(tab), items: items})
	}
	return m, x
}

func TestGoldenExploreTabs(t *testing.T) {
	m, x := fixtureExplorer(t, 110, 14)
	golden(t, "explore_screen", m.View().Content)
	for tab, name := range []string{"explore_tools", "explore_resources", "explore_templates", "explore_prompts"} {
		x.tab = exploreTab(tab)
		golden(t, name, x.Render(100, 9))
	}
	x.tab = tabTools
	press(m, "/")
	for _, r := range "sum" {
		press(m, string(r))
	}
	golden(t, "explore_filtering", x.Render(80, 6))
	press(m, "enter")
	golden(t, "explore_filtered", x.Render(80, 6))
	x.lists[tabTemplates].err = &client.RPCError{Method: "resources/templates/list", Err: &proto.Error{Code: -32601, Message: "Method not found"}}
	x.lists[tabPrompts].state = listUnadvertised
	x.tab = tabTemplates
	golden(t, "explore_list_error", x.Render(110, 4))
	x.tab = tabPrompts
	golden(t, "explore_unadvertised", x.Render(110, 2))
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
	golden(t, "explore_form", x.Render(90, 28))

	_, x = fixtureExplorer(t, 90, 30)
	x.tab = tabTemplates
	x.lists[tabTemplates].cursor = 1
	x.open(x.lists[tabTemplates].items[1])
	for _, r := range "my org" {
		x.Update(keyPress(string(r)))
	}
	golden(t, "explore_template_form", x.Render(90, 16))
}

func TestGoldenExploreOutcome(t *testing.T) {
	_, x := fixtureExplorer(t, 90, 30)
	x.showAnswer("prompts/get", "args-prompt", json.RawMessage(`{"description":"weather","messages":[
		{"role":"user","content":{"type":"text","text":"What's weather in Oslo?"}}]}`), nil)
	golden(t, "explore_outcome", x.Render(70, 16))
	x.showAnswer("tools/call", "get-sum", nil, &client.RPCError{Method: "tools/call",
		Err: &proto.Error{Code: -32602, Message: "Invalid arguments", Data: json.RawMessage(`{"field":"a"}`)}})
	golden(t, "explore_outcome_error", x.Render(70, 10))
}
