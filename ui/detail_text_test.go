package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// detailOf renders the detail of frame seq of st at w×h, ANSI stripped.
func detailOf(t *testing.T, st *capture.Store, seq uint64, w, h int) string {
	t.Helper()
	m := newTestModel(t, st, 200, 60)
	m.traffic.selectSeq(seq)
	m.syncSelection()
	m.detail.SetSize(w, h)
	m.detail.prepare()
	return ansi.Strip(m.detail.Render(w, h, true))
}

// Tabs keep their columns, at stops of 8, in the detail, the traffic row
// and the stderr pane.
func TestTabsKeepTheirColumns(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	st.Append(stderrFrame(t0, "name\tvalue\tx"))
	const want = "name    value   x"
	if d := detailOf(t, st, 1, 80, 12); !strings.Contains(d, want) {
		t.Errorf("the detail:\n%s", d)
	}
	m := newTestModel(t, st, 200, 40)
	if s := screenText(m); !strings.Contains(s, "stderr "+want) {
		t.Errorf("the traffic row:\n%s", s)
	}
	if s := ansi.Strip(m.stderr.Render(60, 3, true)); !strings.Contains(s, want) {
		t.Errorf("the stderr pane:\n%s", s)
	}
}

// A long JSON string wrapped in the detail goes on under its own
// indentation, coloured or not, and every row keeps to the width.
func TestDetailWrappedJSONKeepsItsIndentation(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	long := strings.Repeat("lorem ipsum ", 12)
	st.Append(controlFrame(t, capture.In, t0, proto.EncJSON, result(t, 1, map[string]any{"content": []any{map[string]any{"type": "text", "text": long}}})))
	d := detailOf(t, st, 1, 50, 40)
	lines := strings.Split(d, "\n")
	at := -1
	for i, l := range lines {
		if strings.Contains(l, `"text": "lorem`) {
			at = i
		}
	}
	if at < 0 || at+1 >= len(lines) {
		t.Fatalf("no wrapped string in:\n%s", d)
	}
	indent := len(lines[at]) - len(strings.TrimLeft(lines[at], " "))
	next := lines[at+1]
	if indent == 0 || !strings.HasPrefix(next, strings.Repeat(" ", indent)) || strings.TrimSpace(next) == "" {
		t.Errorf("the string's second row does not go on under its indentation (%d):\n%s", indent, d)
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 50 {
			t.Errorf("row wider than the pane: %q", l)
		}
	}
}

// A field with no value is not drawn ("fields: body ="); the others are.
func TestDetailLeavesOutEmptyFields(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	f := stderrFrame(t0, "hello")
	f.Fields = []proto.Field{{Name: "body", Kind: proto.FieldBody}, {Name: "delimiter", Value: "LF"}}
	st.Append(f)
	g := stderrFrame(t0, "again")
	g.Fields = []proto.Field{{Name: "body", Kind: proto.FieldBody}}
	st.Append(g)
	if d := detailOf(t, st, 1, 80, 12); strings.Contains(d, "body =") || !strings.Contains(d, "fields: delimiter = LF") {
		t.Errorf("the detail:\n%s", d)
	}
	if d := detailOf(t, st, 2, 80, 12); strings.Contains(d, "fields:") {
		t.Errorf("the detail draws an empty fields row:\n%s", d)
	}
}
