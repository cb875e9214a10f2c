package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/asktest"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/question"
)

// rootsOf returns the open roots editor.
func rootsOf(t *testing.T, m *Model) *question.RootsEditor {
	t.Helper()
	e, ok := m.overlay.(*question.RootsEditor)
	if !ok {
		t.Fatalf("the roots editor is not open (overlay %T)", m.overlay)
	}
	return e
}

// TestRootsEditorKeys adds, edits and deletes roots by keys, refuses a
// malformed URI, and on ctrl+s keeps the list for roots/list and
// sends notifications/roots/list_changed on the session.
func TestRootsEditorKeys(t *testing.T) {
	m, r, b := questionModel(t, nil, 100, 30)
	peer := connectFake(t, m)
	r.Press("ctrl+r")
	e := rootsOf(t, m)
	if !strings.Contains(r.ScreenText(), "file:///srv/a  (a)") {
		t.Fatalf("the --root list is not shown:\n%s", r.ScreenText())
	}

	r.Press("a")
	r.TypeText("file://%zz")
	r.Press("enter")
	if !e.Editing() || !strings.Contains(r.ScreenText(), `"file://%zz" is not a URI`) {
		t.Fatalf("a bad URI was kept; screen:\n%s", r.ScreenText())
	}
	r.Press("esc") // back to the list, nothing added
	r.Press("a")
	r.TypeText("file:///srv/b")
	r.Press("tab")
	r.TypeText("bee")
	r.Press("enter")
	r.Press("a")
	r.TypeText("file:///srv/c")
	r.Press("enter")
	r.Press("up", "enter") // edit b's name
	r.Press("tab", "backspace", "backspace", "backspace")
	r.TypeText("b")
	r.Press("enter")
	r.Press("up", "d") // delete a
	// a URI is named after its last element, as --root names it
	want := []mcp.Root{{URI: "file:///srv/b", Name: "b"}, {URI: "file:///srv/c", Name: "c"}}
	if asktest.MustJSON(t, e.Roots()) != asktest.MustJSON(t, want) {
		t.Fatalf("roots %+v, want %+v", e.Roots(), want)
	}
	if got := b.Roots(); len(got) != 1 || got[0].URI != "file:///srv/a" {
		t.Fatalf("the roots changed before ctrl+s: %+v", got)
	}

	_, cmd := m.Update(keyPress("ctrl+s"))
	if m.overlay != nil {
		t.Fatal("ctrl+s did not close the editor")
	}
	if got := b.Roots(); asktest.MustJSON(t, got) != asktest.MustJSON(t, want) {
		t.Errorf("roots/list would answer %+v, want %+v", got, want)
	}
	r.Run(cmd)
	r.Until("the roots are sent", func() bool { return strings.Contains(m.status.message, "2 roots saved") })
	if !strings.Contains(m.status.message, "sent notifications/roots/list_changed") {
		t.Errorf("status %q", m.status.message)
	}
	var sent []string
	for _, msg := range peer.After() {
		sent = append(sent, msg.Method)
	}
	if !slices.Equal(sent, []string{mcp.MethodNotifyRootsListChanged}) {
		t.Errorf("the session sent %v, want one notifications/roots/list_changed", sent)
	}
}

// TestRootsEditorEscKeepsRoots: esc closes without changing anything;
// without a connection ctrl+s keeps the roots and says the server will
// learn of them later.
func TestRootsEditorEscKeepsRoots(t *testing.T) {
	m, r, b := questionModel(t, nil, 100, 30)
	r.Press("ctrl+r", "d", "esc")
	if got := b.Roots(); len(got) != 1 || m.overlay != nil || m.status.message != "the roots were not changed" {
		t.Errorf("after esc: roots %+v, overlay %v, status %q", got, m.overlay, m.status.message)
	}
	r.Press("ctrl+r", "d")
	_, cmd := m.Update(keyPress("ctrl+s"))
	r.Run(cmd)
	r.Until("the save is reported", func() bool { return strings.Contains(m.status.message, "0 roots saved") })
	if len(b.Roots()) != 0 || !strings.Contains(m.status.message, "not connected") {
		t.Errorf("roots %+v, status %q", b.Roots(), m.status.message)
	}
}

// TestRootsKeyWithoutBridge: with an answers file the roots are fixed and
// the key says so.
func TestRootsKeyWithoutBridge(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 100, 30)
	press(m, "ctrl+r")
	if m.overlay != nil || !strings.Contains(m.status.err, "--answers") {
		t.Errorf("overlay %v, status error %q", m.overlay, m.status.err)
	}
}
