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
