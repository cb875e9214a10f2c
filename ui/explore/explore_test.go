package explore

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// The explorer against the in-process demo over MCP-Flow: every key path,
// with a real session; requests are checked in the captured traffic.

func TestExploreOpenListsAndTabs(t *testing.T) {
	m, r, _ := demoModel(t)
	x := openExplorerLoaded(t, r)
	tools := names(&x.lists[tabTools])
	for _, want := range []string{"echo", "read_file", "analyze"} {
		if !slices.Contains(tools, want) {
			t.Errorf("tool %q missing from %v", want, tools)
		}
	}
	if n := len(x.lists[tabResources].items); n == 0 || x.lists[tabResources].items[0].uri != "template://makefile/rust/cli" {
		t.Errorf("resources: %d, first %+v", n, x.lists[tabResources].items)
	}
	if got := names(&x.lists[tabPrompts]); !slices.Equal(got, []string{"review_template", "plan_scaffold"}) {
		t.Errorf("prompts %v", got)
	}
	// Every list of the demo answers: its one resource template too.
	if s := r.ScreenText(); !strings.Contains(s, fmt.Sprintf("[1 Tools %d]", len(tools))) || !strings.Contains(s, " 3 Templates 1 ") || strings.Contains(s, "!") {
		t.Errorf("tab bar:\n%s", s)
	}
	steps := []struct {
		key  string
		want exploreTab
	}{
		{"right", tabResources}, {"right", tabTemplates}, {"left", tabResources}, {"left", tabTools},
		{"left", tabSkills}, {"tab", tabTools}, {"shift+tab", tabSkills}, {"3", tabTemplates}, {"1", tabTools},
		{"4", tabPrompts}, {"5", tabSkills}, {"2", tabResources},
	}
	for _, s := range steps {
		r.Press(s.key)
		if x.tab != s.want {
			t.Fatalf("%s: tab %d, want %d", s.key, x.tab, s.want)
		}
	}
	r.Press("3")
	if s := r.ScreenText(); strings.Contains(s, "failed") || !strings.Contains(s, "template://{category}/{toolchain}/{variant}") {
		t.Errorf("templates tab:\n%s", s)
	}
	r.Press("1", "down", "down")
	if e, _ := x.list().selected(); e.name != tools[2] {
		t.Errorf("down down selects %q, want %q", e.name, tools[2])
	}
	r.Press("esc")
	if m.overlay != nil {
		t.Error("esc on the list without a filter did not close the explorer")
	}
}

func TestExploreRefreshAndCapabilities(t *testing.T) {
	_, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	before := len(screentest.SentRequests(st, mcp.MethodToolsList))
	r.Press("r")
	if x.lists[tabTools].state != listLoading {
		t.Fatalf("r: tools list state %d, want loading", x.lists[tabTools].state)
	}
	r.Until("the lists again", func() bool { return x.lists[tabTools].state == listLoaded && x.lists[tabPrompts].state == listLoaded })
	if after := len(screentest.SentRequests(st, mcp.MethodToolsList)); after != before+1 {
		t.Errorf("tools/list sent %d times after r, want %d", after, before+1)
	}
	caps := client.Advertised(json.RawMessage(`{"tools":{},"prompts":null,"logging":{}}`))
	if !caps["tools"] || caps["prompts"] || caps["resources"] {
		t.Errorf("advertised %v", caps)
	}
	l := entryList{tab: tabPrompts, state: listUnadvertised}
	if s := l.summary(mcp.DialectMCP); !strings.Contains(s, "does not advertise prompts; r asks anyway") {
		t.Errorf("summary %q", s)
	}
}

func TestExploreFilter(t *testing.T) {
	m, r, _ := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.Press("/")
	r.TypeText("rdfl")
	if got := names(x.list()); len(got) == 0 || got[0] != "read_file" || !x.filtering {
		t.Fatalf("filter rdfl shows %v (filtering %v)", got, x.filtering)
	}
	r.Press("backspace", "backspace", "backspace", "backspace")
	r.TypeText("echo")
	if got := names(x.list()); got[0] != "echo" {
		t.Fatalf("filter echo shows %v", got)
	}
	if s := r.ScreenText(); !strings.Contains(s, "/ echo") {
		t.Errorf("the filter input is not shown:\n%s", s)
	}
	r.Press("enter")
	if x.filtering || x.list().filter != "echo" {
		t.Fatalf("enter: filtering %v filter %q, want the filter kept", x.filtering, x.list().filter)
	}
	all := len(x.lists[tabTools].items)
	if s := r.ScreenText(); !strings.Contains(s, fmt.Sprintf(`1 of %d tools matches "echo"`, all)) {
		t.Errorf("summary:\n%s", s)
	}
	r.Press("esc")
	if x.list().filter != "" || m.overlay == nil {
		t.Fatalf("esc with a filter: filter %q, overlay %v; want the filter cleared and the explorer open", x.list().filter, m.overlay)
	}
	r.Press("/")
	r.TypeText("zzz")
	if len(x.list().shown) != 0 {
		t.Errorf("zzz matches %v", names(x.list()))
	}
	r.Press("esc")
	if x.filtering || len(x.list().shown) != all {
		t.Errorf("esc in the filter input: filtering %v, %d shown", x.filtering, len(x.list().shown))
	}
}

// TestExploreTemplateRead fills a template's variables and reads the URI
// they expand to. The demo lists no templates, so the test gives the
// explorer one whose expansions are the demo's resources.
// TestExplorePromptWithoutArguments gets a prompt at once, with no form.
// TestExploreNotConnected opens the explorer without a session: every list
// says why it is empty, and enter does nothing.
func TestExploreNotConnected(t *testing.T) {
	m, _ := newModel(t, 120, 30)
	press(m, "e")
	x, ok := m.overlay.(*Explorer)
	if !ok {
		t.Fatalf("e opened %T", m.overlay)
	}
	if s := plainView(m); !strings.Contains(s, "tools/list failed: not connected") {
		t.Errorf("screen:\n%s", s)
	}
	press(m, "enter")
	if x.mode != modeList {
		t.Errorf("enter on an empty list: mode %d", x.mode)
	}
}

// The explorer's filter input takes the theme's input styles, not the
// input library's own colours.
func TestExploreFilterTakesTheTheme(t *testing.T) {
	h := screentest.NewHost()
	x := New(h, &Discovery{})
	if !reflect.DeepEqual(x.input.Styles(), h.St.Input) {
		t.Error("the filter input does not use the theme's input styles")
	}
}

// / starts a new filter, as in the traffic pane: what is typed is the
// whole filter, not an addition to the one in force, which stays until
// enter, and which esc keeps; and w, with no request of the explorer on
// the wire, says why it shows nothing.
func TestExploreSlashStartsANewFilter(t *testing.T) {
	m, r, _ := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.Press("/")
	r.TypeText("rdfl")
	r.Press("enter")
	r.Press("/")
	if x.input.Value() != "" || x.list().filter != "rdfl" {
		t.Fatalf("/ with a filter in force: input %q, filter %q; want a new, empty input and rdfl in force", x.input.Value(), x.list().filter)
	}
	x.Update(struct{}{}) // a message that is no key (a blink) changes no filter
	r.TypeText("echo")
	r.Press("esc")
	if x.filtering || x.list().filter != "rdfl" {
		t.Fatalf("esc in the new filter: filtering %v, filter %q; want rdfl kept", x.filtering, x.list().filter)
	}
	r.Press("/")
	r.TypeText("echo")
	if got := names(x.list()); x.list().filter != "echo" || len(got) == 0 || got[0] != "echo" {
		t.Errorf("the new filter is %q and shows %v, want echo alone", x.list().filter, got)
	}
	r.Press("enter")
	x.mode = modeOutcome // an answer whose request never went out (not sent)
	if got := errorOf(x.handleKey(keytest.Press("w"))); !strings.Contains(got, "w: no request of this screen is on the wire") {
		t.Errorf("w with nothing sent: %q", got)
	}
	if len(m.host.Shown) != 0 {
		t.Errorf("w with nothing sent showed the frames of %v", m.host.Shown)
	}
}

// A typed key that does nothing on the lists says why in the status line.
func TestExploreIdleKeysSayWhy(t *testing.T) {
	_, r, _ := demoModel(t)
	x := openExplorerLoaded(t, r)
	for _, c := range []struct{ tab, key, want string }{
		{"1", "z", "z is not a key of the explorer: ? lists them"},
		{"1", "S", "S: gateway streams exist only on a gateway connection"},
		{"1", "w", "w: no request sent yet: enter sends one"},
		{"2", "f", "f: the tools/call form is for a tool: 1 shows the tools"},
	} {
		r.Press(c.tab)
		if got := errorOf(x.listKey(keytest.Press(c.key))); !strings.Contains(got, c.want) {
			t.Errorf("%s on list %s: %q, want %q", c.key, c.tab, got, c.want)
		}
	}
}

// errorOf is the error a key's command reports, or "".
func errorOf(cmd tea.Cmd, _ bool) string {
	if cmd == nil {
		return ""
	}
	if e, ok := cmd().(screen.ErrorMsg); ok {
		return e.Err.Error()
	}
	return ""
}

// On a call in flight, on its answer and on the question whether to
// call a tool anyway, a typed key that is no key of
// the screen says so instead of being swallowed.
func TestExploreCallKeysSayWhy(t *testing.T) {
	_, r, _ := demoModel(t)
	x := openExplorerLoaded(t, r)
	for _, mode := range []exploreMode{modeCalling, modeOutcome, modeInsist} {
		x.mode = mode
		if got := errorOf(x.handleKey(keytest.Press("z"))); got != "z is not a key of this screen: ? lists them" {
			t.Errorf("z in mode %d: %q", mode, got)
		}
	}
}

// The explorer's help lists S, a gateway stream, only on a connection
// that runs gateway streams.
func TestExploreHelpListsStreamsOnGateways(t *testing.T) {
	m, r, _ := demoModel(t)
	x := openExplorerLoaded(t, r)
	has := func() bool {
		for _, row := range x.Help().FullHelp() {
			for _, b := range row {
				if b.Help().Key == "S" {
					return true
				}
			}
		}
		return false
	}
	if has() {
		t.Error("the help lists S on a connection with no gateway streams")
	}
	m.host.Stream = func(context.Context, string, string) (json.RawMessage, error) { return nil, nil }
	if !has() {
		t.Error("the help leaves S out on a gateway connection")
	}
}
