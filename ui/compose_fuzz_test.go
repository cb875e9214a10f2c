package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/ui/compose"
)

// TestComposeKeepsTheKeys: with the composer open, q is typed into its
// filter and does not quit; esc in the picker closes it.
func TestComposeKeepsTheKeys(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 120, 30)
	press(m, ":")
	if _, ok := m.overlay.(*compose.Composer); !ok || !strings.Contains(screenText(m), "Compose · pick a method") {
		t.Fatalf(": did not open the picker:\n%s", screenText(m))
	}
	press(m, "q") // typed into the filter, not quitting
	if m.quitting {
		t.Fatal("q in the picker quit")
	}
	press(m, "esc")
	if m.overlay != nil {
		t.Error("esc in the picker did not close the composer")
	}
}

// TestComposeTinyScreens draws every step of the composer at sizes too
// small for it: the screen keeps its height and nothing panics.
func TestComposeTinyScreens(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 120, 30)
	press(m, ":")
	steps := []func(){
		func() {},
		func() {
			for _, r := range "tools/call" {
				press(m, string(r))
			}
			press(m, "enter")
		},
		func() { m.Update(screentest.Ctrl('s')) }, // not connected: the answer says so
	}
	for i, step := range steps {
		step()
		for _, size := range [][2]int{{1, 1}, {0, 0}, {10, 4}, {30, 8}, {200, 5}} {
			m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			if lines := strings.Split(m.View().Content, "\n"); len(lines) != max(size[1], chromeLines) {
				t.Errorf("step %d (%s) at %v: %d lines", i, m.overlay.Title(), size, len(lines))
			}
		}
	}
}

// FuzzComposeKeys types arbitrary keys into the composer, unconnected, and
// draws it after each: no key sequence may panic or leave the screen out
// of shape.
func FuzzComposeKeys(f *testing.F) {
	f.Add([]byte(":tools/call\r\x13\x1b\x1b\x1b"))
	f.Add([]byte(":no/such\r\x14\x13s\x1b\x1b\t\r"))
	f.Add([]byte(":\t\r\x0e\x10\x7fx\x13"))
	st := sampleStore(f)
	f.Fuzz(func(t *testing.T, keys []byte) {
		m := newTestModel(t, st, 80, 20)
		for _, b := range keys {
			m.Update(byteKey(b))
			if lines := strings.Split(m.View().Content, "\n"); len(lines) != 20 {
				t.Fatalf("after %q: %d lines", keys, len(lines))
			}
			if m.quitting {
				return
			}
		}
	})
}

// byteKey turns a byte into a key press: control bytes are ctrl+letter
// (\r enter, \t tab, \x1b esc, \x7f backspace), the others are typed.
func byteKey(b byte) tea.KeyPressMsg {
	switch b {
	case '\r':
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case '\t':
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case 0x1b:
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case 0x7f:
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	if b < 0x20 {
		return screentest.Ctrl(rune('a' + b - 1))
	}
	return keyPress(string(rune(b)))
}
