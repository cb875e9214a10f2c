package ui

import (
	"bytes"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// asTerminal is what a terminal of profile p receives for s, with every
// escape sequence left made visible (␛) and trailing spaces cut.
func asTerminal(t *testing.T, p colorprofile.Profile, s string) string {
	t.Helper()
	var b bytes.Buffer
	w := &colorprofile.Writer{Forward: &b, Profile: p}
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.ReplaceAll(b.String(), "\x1b", "␛"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// With NO_COLOR (the ASCII profile: text attributes, no colours) the
// selected traffic row is still marked: reverse video in the focused
// pane, underlined in a pane without focus; the error rows keep no mark.
func TestGoldenTrafficNoColor(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	m.traffic.dialect = mcp.DialectMCPFlow
	m.Update(tea.ColorProfileMsg{Profile: colorprofile.ASCII})
	if !m.styles.Plain {
		t.Fatal("the ASCII profile did not switch to the plain styles")
	}
	selectWhere(t, m, isMethod("initialize"))
	focused := asTerminal(t, colorprofile.ASCII, m.traffic.Render(100, 6, true))
	goldentest.Check(t, "traffic_nocolor", focused)
	if !strings.Contains(focused, "␛[7m") {
		t.Error("the focused selection is not in reverse video")
	}
	blurred := asTerminal(t, colorprofile.ASCII, m.traffic.Render(100, 6, false))
	goldentest.Check(t, "traffic_nocolor_blurred", blurred)
	if !strings.Contains(blurred, "␛[4") {
		t.Error("the selection of a pane without focus is not underlined")
	}
	m.Update(tea.BackgroundColorMsg{Color: nil})
	if !m.styles.Plain {
		t.Error("a background colour report dropped the plain styles")
	}
	m.Update(tea.ColorProfileMsg{Profile: colorprofile.TrueColor})
	if m.styles.Plain {
		t.Error("a colour profile kept the plain styles")
	}
}
