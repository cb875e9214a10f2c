package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/explore"
)

// wantAll fails for each of wants that text lacks.
func wantAll(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

// On a choice field of an elicitation form, the hint bar keeps how to pick
// an option (←/→ and space), accept and cancel, and the help key, at 60,
// 80 and 120 columns; on a text field it offers F1, since ? is typed.
func TestElicitHintsKeepTheChoiceKeys(t *testing.T) {
	for _, w := range []int{60, 80, 120} {
		m, r, b := questionModel(t, capture.NewStore(capture.Config{}), w, 22)
		ask(t, r, b, context.Background(), mcp.MethodElicitationCreate, screentest.ElicitFormParams)
		wantAll(t, "the hint bar on a text field", hintLine(m), "F1 help", "ctrl+s accept", "esc cancel")
		r.Press("tab", "tab", "tab") // name, age, check, color
		h := hintLine(m)
		wantAll(t, "the hint bar on a choice", h, "? help", "←/→ space choose", "ctrl+s accept", "esc cancel")
		if w == 120 && !strings.Contains(h, "tab/↓ next field") {
			t.Errorf("at 120 columns the next field was left out: %q", h)
		}
	}
}

// The root's hint bar keeps ? and q at every width and ranks the keys by
// use: what does not fit is left out from the end, with an ellipsis.
func TestRootHintsKeepHelpAndQuit(t *testing.T) {
	for _, c := range []struct {
		w    int
		want []string
	}{
		{60, []string{"? help • tab next pane • enter detail • … • q quit"}},
		{80, []string{"? help • tab next pane • enter detail • / filter • e explore • … • q quit"}},
		{120, []string{"? help • tab next pane • enter detail • / filter • e explore • : compose • x hex dump", "• q quit"}},
	} {
		m := newTestModel(t, sampleStore(t), c.w, 24)
		wantAll(t, "the hint bar", hintLine(m), c.want...)
	}
}

// ? shows the keys of the screen that is open, says how to close the
// help, and esc closes the help, not the screen.
func TestHelpOfTheExplorer(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 120, 30)
	m.openOverlay(explore.New(driver{m}, &m.interactive))
	press(m, "?")
	if !m.showHelp {
		t.Fatal("? did not open the help over the explorer")
	}
	wantAll(t, "the explorer's help", screenText(m), "Keys of Explorer", "? or esc closes help",
		"reload all lists", "1-4", "next list", "clear filter", "cancel the request", "pgdn", "ctrl+c")
	if strings.Contains(screenText(m), "read_file 1 MiB") {
		t.Error("the explorer's help lists the panes' keys")
	}
	wantAll(t, "the hint bar over the help", hintLine(m), "?/esc close help", "ctrl+c quit")
	press(m, "r") // no key of the explorer reaches it under the help
	press(m, "esc")
	if m.showHelp || m.overlay == nil {
		t.Fatalf("esc: help %v, screen open %v; want the explorer back", m.showHelp, m.overlay != nil)
	}
	press(m, "f1")
	press(m, "f1")
	if m.showHelp || m.overlay == nil {
		t.Error("F1 did not open and close the help")
	}
}

// In a text field ? is typed; F1 opens the help, which lists the form's
// keys with the question's, and closing it leaves the question as it was.
func TestHelpOfAForm(t *testing.T) {
	m, r, b := questionModel(t, capture.NewStore(capture.Config{}), 100, 30)
	ask(t, r, b, context.Background(), mcp.MethodElicitationCreate, screentest.ElicitFormParams)
	r.Press("?")
	if m.showHelp || !strings.Contains(screenText(m), "> ?") {
		t.Fatalf("? in a text field did not type a ?: help %v\n%s", m.showHelp, screenText(m))
	}
	r.Press("f1")
	wantAll(t, "the form's help", screenText(m), "Keys of Question · elicitation · form", "? or esc closes help",
		"ctrl+d decline", "next field", "previous field", "←/→", "option", "space", "edit as JSON", "unset", "F1", "? types a ?")
	r.Press("esc")
	if m.showHelp || openQuestions(m) != 1 || !strings.Contains(screenText(m), "> ?") {
		t.Errorf("esc closed more than the help: help %v, questions %d\n%s", m.showHelp, openQuestions(m), screenText(m))
	}
}

// The composer, the roots editor and a sampling request list their own
// keys; where a text field has the keys, ? goes to it.
func TestHelpOfEveryScreen(t *testing.T) {
	m, r, b := questionModel(t, capture.NewStore(capture.Config{}), 120, 30)
	r.Press(":")
	r.Press("?")
	if m.showHelp {
		t.Fatal("? in the composer's method filter opened the help")
	}
	r.Press("f1")
	wantAll(t, "the composer's help", screenText(m), "Keys of Compose", "ctrl+s", "request ⇄ notification",
		"methods / history", "send again", "one step back")
	r.Press("esc", "esc")
	if m.overlay != nil {
		t.Fatal("esc did not close the composer after the help")
	}

	r.Press("ctrl+r", "?")
	wantAll(t, "the roots editor's help", screenText(m), "Keys of Roots", "save and notify the server", "uri ⇄ name")
	r.Press("esc", "esc")

	ask(t, r, b, context.Background(), mcp.MethodSamplingCreateMessage, screentest.SamplingParams)
	wantAll(t, "the sampling hint bar", hintLine(m), "F1 help", "ctrl+s send reply", "esc cancel")
	r.Press("f1")
	wantAll(t, "the sampling help", screenText(m), "Keys of Question · sampling", "send reply", "reply ⇄ model", "scroll up")
}

// While a filter is typed, ? is part of it and F1 opens the help.
func TestHelpWhileFiltering(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 120, 30)
	press(m, "/")
	press(m, "?")
	if m.showHelp || m.input.Value() != "?" {
		t.Fatalf("? while filtering: help %v, filter %q", m.showHelp, m.input.Value())
	}
	press(m, "f1")
	if !m.showHelp {
		t.Fatal("F1 while filtering did not open the help")
	}
	press(m, "esc")
	if m.showHelp || !m.filtering {
		t.Errorf("esc: help %v, filtering %v; want the help closed and the filter still open", m.showHelp, m.filtering)
	}
}

// A help screen taller than the body scrolls with the navigation keys.
func TestHelpScrolls(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 80, 20)
	press(m, "?")
	if strings.Contains(screenText(m), "filter words") {
		t.Fatal("the help fits: the test needs a smaller screen")
	}
	press(m, "end")
	wantAll(t, "the help's end", screenText(m), "filter words")
	press(m, "home")
	wantAll(t, "the help's top", screenText(m), "? or esc closes help")
}

// 1…6 jump to the panes; a pane the connection has not is named in the
// status line, and the help lists only the panes there are.
func TestPaneKeys(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	m.setPanes(panesFor(mcp.DialectMCP))
	for _, c := range []struct {
		key  string
		want paneID
	}{{"5", paneHex}, {"4", paneDetail}, {"6", paneStderr}, {"1", paneTraffic}} {
		press(m, c.key)
		if m.focus != c.want {
			t.Errorf("%s: focus %s, want %s", c.key, paneNames[m.focus], paneNames[c.want])
		}
	}
	press(m, "2")
	if m.focus != paneTraffic || !strings.Contains(screenText(m), "no Streams pane here") {
		t.Errorf("2 on stdio: focus %s, status %q", paneNames[m.focus], m.status.message)
	}
	press(m, "?")
	text := screenText(m)
	text = text[:strings.LastIndex(text, "\n")] // the status line still names Streams
	wantAll(t, "the help", text, "Traffic", "Hex", "Stderr")
	if strings.Contains(text, "Streams") || strings.Contains(text, "Datagrams") {
		t.Errorf("the help lists panes stdio has not:\n%s", text)
	}
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	wantAll(t, "the help at 80×24", screenText(m), "? or esc closes help")
}

// A wizard's prompt takes typed text: F1 opens the help, which lists the
// widget's keys and the wizard's.
func TestHelpOfAWizard(t *testing.T) {
	m, r, _ := scriptedModel(t, true)
	openGreetWizard(t, m, r)
	r.Until("the first prompt", func() bool { return strings.Contains(r.ScreenText(), "Your name?") })
	wantAll(t, "the wizard's hint bar", hintLine(m), "F1 help", "enter answer", "esc cancel")
	r.Press("f1")
	wantAll(t, "the wizard's help", screenText(m), "Keys of Wizard · greet", "? or esc closes help", "enter", "answer",
		"cancel the session", "session state", "cancel the answer in flight", "close, once ended")
	r.Press("esc")
	if m.showHelp || !strings.Contains(screenText(m), "Your name?") {
		t.Errorf("esc did not return to the prompt:\n%s", screenText(m))
	}
}
