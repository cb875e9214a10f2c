package textfit

import (
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestWrapKeepsEveryLineWithinWidth(t *testing.T) {
	lines := Wrap(lipgloss.NewStyle().Bold(true), "the quick brown fox jumps over the lazy dog", 10)
	if len(lines) < 4 {
		t.Fatalf("%d lines: %q", len(lines), lines)
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 10 {
			t.Errorf("line %q is %d cells wide", ansi.Strip(l), w)
		}
	}
	if Wrap(lipgloss.NewStyle(), "", 10) != nil {
		t.Error("empty text gave lines")
	}
}

func TestClipMarksTheCut(t *testing.T) {
	if got := ansi.Strip(Clip("abcdefghij", 5)); got != "abcd…" {
		t.Errorf("Clip = %q", got)
	}
	if got := Clip("abc", 0); ansi.StringWidth(got) > 1 {
		t.Errorf("Clip to 0 = %q", got)
	}
}

// Flow parts items by two spaces, starts a line where the next would
// pass the width, cuts an item wider than it, and keeps one line when
// the width is not positive.
func TestFlow(t *testing.T) {
	items := []string{"aaa", "bb", "cccc", "dddddddddd"}
	if got, want := Flow(items, 8), "aaa  bb\ncccc\nddddddd…"; got != want {
		t.Errorf("Flow at 8 = %q, want %q", got, want)
	}
	if got, want := Flow(items, 0), "aaa  bb  cccc  dddddddddd"; got != want {
		t.Errorf("Flow at 0 = %q, want %q", got, want)
	}
}
