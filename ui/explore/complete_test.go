package explore

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// openEntryForm opens the explorer, picks the tab (1-4), filters it to
// filter and opens the form of the entry selected.
func openEntryForm(t *testing.T, r *cmdRunner, tab, filter string) *Explorer {
	t.Helper()
	x := openExplorerLoaded(t, r)
	r.Press(tab, "/")
	r.TypeText(filter)
	r.Press("enter", "enter")
	if x.mode != modeForm {
		t.Fatalf("no form opened; screen:\n%s", r.ScreenText())
	}
	return x
}

// typeInForm types s into the focused field as keys, dropping what each
// key returns: the test ends the debounce itself (restDebounce).
func typeInForm(m *Model, s string) {
	for _, c := range s {
		press(m, string(c))
	}
}

// restDebounce delivers the tick of the current text as if it had rested
// for suggestDelay, and runs the request it sends.
func restDebounce(r *cmdRunner, x *Explorer) {
	r.Send(suggestTickMsg{gen: x.suggest.gen})
}

// suggestionsShown waits until the list (or its one line) is open.
func suggestionsShown(t *testing.T, r *cmdRunner, x *Explorer) {
	t.Helper()
	r.Until("suggestions under the field", func() bool { return x.form != nil && x.form.SuggestionsOpen() })
}

// TestSuggestDemo: the demo's prompt and template forms suggest values as
// the user types; a template variable's suggestions are narrowed by the
// other variables sent as context; enter takes the one chosen.
func TestSuggestDemo(t *testing.T) {
	m, r, _ := demoModel(t)
	x := openEntryForm(t, r, "4", "plan")
	typeInForm(m, "r")
	restDebounce(r, x)
	suggestionsShown(t, r, x)
	goldentest.CheckPlain(t, "explore_suggestions", x.Render(80, 12))
	press(m, "enter")
	if v, _ := x.form.Value(); string(v) != `{"toolchain":"rust"}` {
		t.Errorf("taken: %s", v)
	}

	press(m, "esc")
	press(m, "esc")
	r.Press("3", "enter")
	press(m, "tab")
	typeInForm(m, "go")
	press(m, "tab") // variant, empty: every variant of a go template
	restDebounce(r, x)
	suggestionsShown(t, r, x)
	if view := plainView(m); !strings.Contains(view, "▸ cli") || regexp.MustCompile(`(?m)^\s+package$`).MatchString(view) {
		t.Errorf("the variants of go templates are not the ones shown:\n%s", view)
	}
}

// TestSuggestTSEverything drives the explorer against the TypeScript
// reference server: completable-prompt's name depends on the department
// sent as context, and a template's variable is completed with
// ref/resource naming the URI template.
func TestSuggestTSEverything(t *testing.T) {
	t.Parallel()
	m, r := newModel(t, 120, 40)
	m.host.Sess = screentest.ConnectStdio(t, m.store, peertest.TSEverything(t, "stdio"))
	x := openEntryForm(t, r, "4", "completable")
	typeInForm(m, "Sa")
	restDebounce(r, x)
	suggestionsShown(t, r, x)
	if view := plainView(m); !strings.Contains(view, "▸ Sales") {
		t.Fatalf("department Sa:\n%s", view)
	}
	press(m, "enter")
	press(m, "tab")
	restDebounce(r, x)
	suggestionsShown(t, r, x)
	press(m, "down")
	press(m, "enter")
	if v, _ := x.form.Value(); string(v) != `{"department":"Sales","name":"Eve"}` {
		t.Errorf("the form holds %s", v)
	}

	press(m, "esc")
	r.Press("3", "/")
	r.TypeText("dynamic text")
	r.Press("enter", "enter")
	typeInForm(m, "12")
	restDebounce(r, x)
	r.Until("the answer for resourceId 12", func() bool { return answered(m.store, `"values":["12"]`) })
	sent := completionsSent(m.store)
	want := `{"ref":{"type":"ref/resource","uri":"demo://resource/dynamic/text/{resourceId}"},"argument":{"name":"resourceId","value":"12"}}`
	if len(sent) == 0 || sent[len(sent)-1] != want {
		t.Errorf("completion/complete sent with %q, want %s last", sent, want)
	}
}

// answered reports whether a server's answer in st holds text.
func answered(st *capture.Store, text string) bool {
	for _, f := range st.Window(1, st.Len()) {
		if f.Dir == capture.In && f.Msg != nil && strings.Contains(string(f.Msg.Result), text) {
			return true
		}
	}
	return false
}

// completionsSent lists the params of every completion/complete in st.
func completionsSent(st *capture.Store) []string {
	var out []string
	for _, f := range st.Window(1, st.Len()) {
		if f.Dir == capture.Out && f.Msg != nil && f.Msg.Method == mcp.MethodCompletionComplete {
			out = append(out, string(f.Msg.Params))
		}
	}
	return out
}

// completionModel connects a model to a CompletionPeer answering with
// answer, and opens the form of its prompt "pick".
func completionModel(t *testing.T, advertise bool, answer func(mcp.CompleteParams) (string, *jsonrpc.Error)) (*Model, *cmdRunner, *Explorer, *screentest.CompletionPeer) {
	t.Helper()
	m, r := newModel(t, 100, 30)
	p, s := screentest.ConnectCompletionPeer(t, m.store, advertise, answer)
	m.host.Sess = s
	return m, r, openEntryForm(t, r, "4", "pick"), p
}

// TestSuggestNeverAnswered: a server that never answers blocks no key; a
// new text cancels the request of the old one, whose late end is dropped.
func TestSuggestNeverAnswered(t *testing.T) {
	t.Parallel()
	m, r, x, p := completionModel(t, true, func(mcp.CompleteParams) (string, *jsonrpc.Error) {
		return `{"completion":{"values":["late"]}}`, nil
	})
	p.SetHold(true)
	typeInForm(m, "a")
	restDebounce(r, x)
	r.Until("the request on the wire", func() bool { return len(p.Sent(mcp.MethodCompletionComplete)) == 1 })
	typeInForm(m, "bc")
	if _, text, _ := x.form.FocusedText(); text != "abc" {
		t.Fatalf("typed abc with a request unanswered, the field holds %q", text)
	}
	r.Until("the old request cancelled", func() bool { return len(p.Sent(mcp.MethodNotifyCancelled)) == 1 })
	var c mcp.CancelledNotificationParams
	_ = json.Unmarshal(p.Sent(mcp.MethodNotifyCancelled)[0].Params, &c)
	if first := p.Sent(mcp.MethodCompletionComplete)[0]; c.RequestID.Key() != first.ID.Key() {
		t.Errorf("cancelled %v, the request was %v", c.RequestID, first.ID)
	}
	if x.form.SuggestionsOpen() {
		t.Error("the cancelled request's end opened the list")
	}
	p.SetHold(false)
	restDebounce(r, x)
	suggestionsShown(t, r, x)
	var last mcp.CompleteParams
	sent := p.Sent(mcp.MethodCompletionComplete)
	_ = json.Unmarshal(sent[len(sent)-1].Params, &last)
	if last.Argument.Value != "abc" {
		t.Errorf("asked for %q, want abc", last.Argument.Value)
	}
}

// TestSuggestHostile: 10,000 values (100 kept), escape sequences, line
// breaks and a megabyte value are shown safely; hasMore with no values,
// a malformed answer and an error answer are one line under the field.
func TestSuggestHostile(t *testing.T) {
	t.Parallel()
	var answer string
	var rpcErr *jsonrpc.Error
	m, r, x, _ := completionModel(t, true, func(mcp.CompleteParams) (string, *jsonrpc.Error) { return answer, rpcErr })
	values := []string{"\x1b]0;PWNED\x07\x1b[2J", "two\nlines", strings.Repeat("y", 1<<20)}
	for i := range 10000 {
		values = append(values, fmt.Sprintf("v%d", i))
	}
	doc, _ := json.Marshal(map[string]any{"completion": map[string]any{"values": values, "total": 20000, "hasMore": true}})
	answer = string(doc)
	typeInForm(m, "x")
	restDebounce(r, x)
	suggestionsShown(t, r, x)
	view := m.View().Content
	screentest.AssertSafeView(t, "10,000 hostile values", view)
	if plain := plainView(m); !strings.Contains(plain, "6 of 100 shown") || !strings.Contains(plain, "100 of 20000; type more to narrow; 9903 values dropped") {
		t.Errorf("the list:\n%s", plain)
	}

	for _, c := range []struct {
		answer string
		err    *jsonrpc.Error
		want   string
	}{
		{`{"completion":{"values":[],"hasMore":true}}`, nil, "the server has more; type more to narrow"},
		{`{"completion":{"values":[1]}}`, nil, "✗ completion/complete: protocol violation: the completion/complete result's completion.values[0"},
		{"", &jsonrpc.Error{Code: -32602, Message: "no such\x1b[2J argument"}, `✗ completion/complete: no such\x1b[2J argument (code -32602)`},
	} {
		answer, rpcErr = c.answer, c.err
		typeInForm(m, "y")
		restDebounce(r, x)
		suggestionsShown(t, r, x)
		if plain := plainView(m); !strings.Contains(plain, c.want) {
			t.Errorf("%s %v: want %q in\n%s", c.answer, c.err, c.want, plain)
		}
	}
}

// TestSuggestNotAdvertised: a server without the completions capability
// is asked nothing as the user types; the form says so once, and
// ctrl+space asks anyway.
func TestSuggestNotAdvertised(t *testing.T) {
	t.Parallel()
	m, r, x, p := completionModel(t, false, func(q mcp.CompleteParams) (string, *jsonrpc.Error) {
		return `{"completion":{"values":["` + q.Argument.Value + `-red","` + q.Argument.Value + `-blue"]}}`, nil
	})
	if view := plainView(m); !strings.Contains(view, notAdvertised) {
		t.Errorf("the form does not say completions are not advertised:\n%s", view)
	}
	typeInForm(m, "t")
	if x.suggest.asked || len(p.Sent(mcp.MethodCompletionComplete)) != 0 {
		t.Fatal("asked a server that does not advertise completions")
	}
	ctrlSpace := tea.KeyPressMsg{Code: tea.KeySpace, Mod: tea.ModCtrl}
	if ctrlSpace.String() != "ctrl+space" {
		t.Fatalf("the key is %q", ctrlSpace.String())
	}
	r.Send(ctrlSpace)
	r.Until("the values ctrl+space asked for", func() bool { return strings.Contains(plainView(m), "▸ t-red") })
	press(m, "esc")
	press(m, "tab")
	if strings.Contains(plainView(m), notAdvertised) {
		t.Error("the note is said twice")
	}
}
