package explore

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// The demo's weather_app names its UI resource in the preview; nothing is
// read until u, which reads it and shows its CSP and permissions.
func TestExploreAppToolReadsItsUIOnAsk(t *testing.T) {
	_, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.Press("/")
	for _, c := range "weather_app" {
		r.Press(string(c))
	}
	r.Press("enter")
	if e, ok := x.list().selected(); !ok || e.name != "weather_app" || e.app == nil {
		t.Fatalf("selected %+v", e)
	}
	if s := r.ScreenText(); !strings.Contains(s, "app ui://demo/weather.html (model, app)") {
		t.Errorf("no app line in the preview:\n%s", s)
	}
	if n := len(screentest.SentRequests(st, mcp.MethodResourcesRead)); n != 0 {
		t.Fatalf("%d resources/read before u", n)
	}
	r.Press("2")
	for i, e := range x.lists[tabResources].items {
		if e.uri == "ui://demo/weather.html" {
			x.lists[tabResources].cursor = i
		}
	}
	if s := r.ScreenText(); !strings.Contains(s, "── app (as listed) ──") || !strings.Contains(s, "app permissions: geolocation") {
		t.Errorf("no listed app metadata in the resource's preview:\n%s", s)
	}
	r.Press("1")
	r.Press("u")
	r.Until("the UI resource read", func() bool { return x.mode == modeOutcome })
	body := ansi.Strip(x.out.Body)
	for _, want := range []string{"app csp connect: https://api.weather.example", "app csp resource: https://cdn.weather.example",
		"app permissions: geolocation", "<h1>Weather</h1>"} {
		if !strings.Contains(body, want) {
			t.Errorf("no %q in the outcome:\n%s", want, body)
		}
	}
	if got := screentest.SentRequests(st, mcp.MethodResourcesRead); len(got) != 1 || !strings.Contains(string(got[0]), "ui://demo/weather.html") {
		t.Errorf("resources/read sent: %s", got)
	}
}

// A tool that names no UI resource: u says so and reads nothing.
func TestExploreAppKeyOnAPlainTool(t *testing.T) {
	m, x := fixtureExplorer(t, 110, 14)
	cmd := press(m, "u")
	if cmd == nil || x.mode == modeOutcome {
		t.Fatalf("u on a plain tool: mode %d", x.mode)
	}
	if msg, ok := cmd().(screen.ErrorMsg); !ok || !strings.Contains(msg.Err.Error(), "has no MCP App") {
		t.Errorf("u said %v", msg)
	}
}

func TestGoldenExploreAppPreview(t *testing.T) {
	m, x := fixtureExplorer(t, 110, 16)
	items := []json.RawMessage{
		json.RawMessage(`{"name":"weather","description":"Weather with a view","inputSchema":{"type":"object"},
			"_meta":{"ui":{"resourceUri":"ui://weather/view.html","visibility":["model","app"]},"ui/resourceUri":"ui://weather/view.html"}}`),
		json.RawMessage(`{"name":"legacy_view","description":"Names its view the old way","_meta":{"ui/resourceUri":"ui://old/view.html"}}`),
	}
	m.Update(exploreListMsg{gen: x.listGen, tab: tabTools, items: items})
	goldentest.CheckPlain(t, "explore_app_preview", x.Render(110, 12))
	x.lists[tabTools].cursor = 1
	goldentest.CheckPlain(t, "explore_app_preview_legacy", x.Render(110, 8))
}

// The list head says the list's cache hint, and once the list is older
// than its ttl, that it is stale.
func TestExploreListCacheHint(t *testing.T) {
	at := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	now = func() time.Time { return at }
	t.Cleanup(func() { now = time.Now })
	m, x := fixtureExplorer(t, 110, 14)
	m.Update(exploreListMsg{gen: x.listGen, tab: tabTools, items: []json.RawMessage{json.RawMessage(`{"name":"echo"}`)},
		hint: mcp.ReadCacheHint(json.RawMessage(`{"ttlMs":60000,"cacheScope":"public"}`))})
	if s := ansi.Strip(x.Render(110, 6)); !strings.Contains(s, "1 tool · cached 60 s, public ·") {
		t.Errorf("fresh:\n%s", s)
	}
	at = at.Add(3 * time.Minute)
	if s := ansi.Strip(x.Render(110, 6)); !strings.Contains(s, "cached 60 s, public · stale: fetched 3m") {
		t.Errorf("stale:\n%s", s)
	}
	m.Update(exploreListMsg{gen: x.listGen, tab: tabTools, items: []json.RawMessage{json.RawMessage(`{"name":"echo"}`)},
		hint: mcp.ReadCacheHint(json.RawMessage(`{"ttlMs":0,"cacheScope":"private"}`))})
	if s := ansi.Strip(x.Render(110, 6)); !strings.Contains(s, "stale at once, private") {
		t.Errorf("ttl 0:\n%s", s)
	}
}

// The outcome of a tools/call shows structuredContent under the content,
// where the JSON text differs from it, and each outputSchema failure.
func TestGoldenExploreOutcomeStructured(t *testing.T) {
	_, x := fixtureExplorer(t, 90, 40)
	x.target = entry{tab: tabTools, name: "get-structured-content", output: json.RawMessage(`{"type":"object",
		"properties":{"temperature":{"type":"number"},"conditions":{"type":"string"},"humidity":{"type":"number"}},
		"required":["temperature","conditions","humidity"]}`)}
	res := json.RawMessage(`{"content":[{"type":"text","text":"{\"temperature\":33,\"conditions\":\"Rain\",\"humidity\":82}"}],
		"structuredContent":{"temperature":"33","conditions":"Cloudy"}}`)
	x.mode, x.subject = modeCalling, "get-structured-content"
	v := x.answerRenderer(mcp.MethodToolsCall)(res, nil)
	x.answered(exploreAnswerMsg{gen: x.callGen, done: screen.CallDoneMsg{Method: mcp.MethodToolsCall, Result: res}, view: v})
	if v.failure == nil {
		t.Error("structuredContent failing the outputSchema is not a failure")
	}
	goldentest.CheckPlain(t, "explore_outcome_structured", x.Render(90, 36))
}

// The answer of a call is rendered and judged in the call's tea.Cmd (a
// result of megabytes takes seconds): answered shows that outcome as it
// is and passes its verdict on, rendering and validating nothing again.
func TestExploreAnswerRenderedInItsCmd(t *testing.T) {
	_, x := fixtureExplorer(t, 90, 40)
	x.target = entry{tab: tabTools, name: "w", output: json.RawMessage(`{"type":"object","required":["t"]}`)}
	res := json.RawMessage(`{"content":[],"structuredContent":{}}`)
	v := x.answerRenderer(mcp.MethodToolsCall)(res, nil)
	if v.failure == nil || !strings.Contains(ansi.Strip(v.out.Body), `$: missing required property "t"`) {
		t.Fatalf("rendered: %v\n%s", v.failure, ansi.Strip(v.out.Body))
	}
	x.mode = modeCalling
	cmd := x.answered(exploreAnswerMsg{gen: x.callGen, done: screen.CallDoneMsg{Method: mcp.MethodToolsCall, Result: res}, view: v})
	if done, ok := cmd().(screen.CallDoneMsg); x.out != v.out || !ok || done.ToolFailure != v.failure {
		t.Errorf("shown %p (rendered %p), reported %+v", x.out, v.out, done)
	}
}

// After u read an app tool's UI resource, enter ("again") reads it again
// rather than opening the tool's call form.
func TestExploreAppAgainRereadsTheUI(t *testing.T) {
	_, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.Press("/")
	for _, c := range "weather_app" {
		r.Press(string(c))
	}
	r.Press("enter")
	r.Press("u")
	r.Until("the UI resource read", func() bool { return x.mode == modeOutcome })
	r.Press("enter")
	r.Until("the UI resource read again", func() bool { return x.mode == modeOutcome })
	if n := len(screentest.SentRequests(st, mcp.MethodResourcesRead)); n != 2 || x.form != nil || x.method != mcp.MethodResourcesRead {
		t.Errorf("%d reads, method %q, form %v", n, x.method, x.form != nil)
	}
}
