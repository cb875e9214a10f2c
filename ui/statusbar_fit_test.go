package ui

import (
	"strings"
	"testing"
)

// longRecording is a recording path as long as the state directory makes
// them.
const longRecording = "/home/someone-with-a-long-name/.local/state/mcpscope/recordings/2026-11-29T08-40-00-127.0.0.1_4433.mcpscope.jsonl"

// recordedModel is a model connected over a fake 2025-11-25 session and
// recording to longRecording, w columns wide.
func recordedModel(t *testing.T, w int) *Model {
	t.Helper()
	m := connectedModel(t)
	m.cfg.Recording = longRecording
	m.Update(connectedMsg{gen: 1})
	m.setSize(w, 24)
	return m
}

// At 80 columns the status bar keeps ● REC, and a note naming a saved
// file outranks the facts: too long for the bar, it has the line over
// it, where the file's name is shown whole, the middle of a path too long
// for the line left out.
func TestStatusNoteOutranksTheFacts(t *testing.T) {
	m := recordedModel(t, 80)
	m.status.notePath("saved 19 frames to " + longRecording)
	s := lastLine(screenText(m))
	if !strings.Contains(s, "● REC") {
		t.Errorf("● REC is cut at 80 columns: %q", s)
	}
	if a := hintLine(m); !strings.HasSuffix(strings.TrimSpace(a), "/2026-11-29T08-40-00-127.0.0.1_4433.mcpscope.jsonl") || !strings.Contains(a, "…") ||
		!strings.HasPrefix(a, " saved 19 frames to /home") {
		t.Errorf("the saved file's name is cut: %q", a)
	}
	m.status.notePath("saved 19 frames to /tmp/x.jsonl")
	if s := lastLine(screenText(m)); !strings.Contains(s, "saved 19 frames to /tmp/x.jsonl") || !strings.Contains(s, "● REC") {
		t.Errorf("a short note beside the facts: %q", s)
	}
}

// The status bar says what a 2025-11-25 session opened with, never
// "legacy".
func TestStatusNamesTheHandshake(t *testing.T) {
	m := recordedModel(t, 200)
	bar := strings.Join(m.statusParts(), " · ")
	if !strings.Contains(bar, "2025-11-25 · initialize handshake") || strings.Contains(bar, "legacy") {
		t.Errorf("status bar %q", bar)
	}
}

// A note is cleared by the next key: it does not stand beside what the
// user does next (a screen opened, a pane changed).
func TestStatusNoteClearedByTheNextKey(t *testing.T) {
	m := recordedModel(t, 120)
	m.status.note("saved 19 frames to /tmp/x.jsonl")
	press(m, "tab")
	if s := lastLine(screenText(m)); strings.Contains(s, "saved 19 frames") {
		t.Errorf("the note stood through the next key: %q", s)
	}
}

// i and the help say where the session is recorded and how to replay it.
func TestRecordingShownInServerViewAndHelp(t *testing.T) {
	m := recordedModel(t, 200)
	path := "/tmp/state/mcpscope/recordings/demo.mcpscope.jsonl"
	m.cfg.Recording = path
	press(m, "i")
	wantAll(t, "the server view", screenText(m), "recording     "+path, "mcpscope replay "+path)
	press(m, "esc")
	press(m, "?")
	wantAll(t, "the help", screenText(m), "recording to "+path, "mcpscope replay "+path)
}
