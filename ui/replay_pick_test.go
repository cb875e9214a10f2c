package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/recordings"
)

func pickerEntries() []recordings.Entry {
	at := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	return []recordings.Entry{
		{Path: "/r/3-everything.jsonl", Header: recordings.Header{Target: "npx server-everything stdio", Transport: "stdio", Started: at}, Frames: 12, Size: 4096, Ended: true},
		{Path: "/r/2-demo.jsonl", Header: recordings.Header{Target: "wt://127.0.0.1:4433/mcp", Transport: "wt", Started: at.Add(-time.Hour)}, Frames: 70, Size: 1 << 20},
		{Path: "/r/1-bad.jsonl", ModTime: at, Err: errors.New("not an mcpscope recording: \x1b[31mred")},
	}
}

// The picker lists every recording with its facts, filters as the user
// types, and enter picks the selected one.
func TestPickerListsFiltersAndPicks(t *testing.T) {
	p := NewPicker("/r", pickerEntries())
	p.Update(tea.WindowSizeMsg{Width: 140, Height: 20})
	screen := ansi.Strip(p.View().Content)
	for _, want := range []string{"Recordings in /r", "npx server-everything stdio", "ended", "cut short", "1.0 MiB", "unreadable: not an mcpscope recording: \\x1b[31mred"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the list lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "\x1b[31m") {
		t.Error("a file's error reached the screen unescaped")
	}
	p.Update(keyPress("down"))
	p.Update(keyPress("enter"))
	if p.Chosen() != "/r/2-demo.jsonl" {
		t.Errorf("picked %q", p.Chosen())
	}
	p = NewPicker("/r", pickerEntries())
	for _, r := range "wt:" {
		p.Update(keyPress(string(r)))
	}
	if len(p.shown) != 1 {
		t.Errorf("the filter kept %d", len(p.shown))
	}
	p.Update(keyPress("enter"))
	if p.Chosen() != "/r/2-demo.jsonl" {
		t.Errorf("filtered pick %q", p.Chosen())
	}
	p = NewPicker("/r", pickerEntries())
	if _, cmd := p.Update(keyPress("esc")); cmd == nil || p.Chosen() != "" {
		t.Error("esc did not leave without a pick")
	}
}
