package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/rectest"
	"github.com/mcpscope/mcpscope/recordings"
)

// typeInto replaces the input line's text with s.
func typeInto(m *Model, s string) {
	m.input.SetValue("")
	for _, r := range s {
		press(m, string(r))
	}
}

// runSave presses ctrl+s, types path, presses enter and runs the save.
func runSave(t *testing.T, m *Model, path string) {
	t.Helper()
	press(m, "ctrl+s")
	if !m.filtering || !m.saving || !strings.Contains(screenText(m), "save to: mcpscope-") {
		t.Fatalf("ctrl+s did not ask where to save:\n%s", lastLine(screenText(m)))
	}
	typeInto(m, path)
	cmd := press(m, "enter")
	if cmd == nil {
		t.Fatal("enter saved nothing")
	}
	m.Update(cmd())
	if m.filtering || m.saving || m.input.Prompt != filterPrompt {
		t.Error("the input line stayed open")
	}
}

// Without a recording, the save key writes the store's frames and stream
// marks as a new recording, which replays to the same store.
func TestSaveKeyWritesTheStore(t *testing.T) {
	st := sampleStore(t)
	m := newTestModel(t, st, 140, 40)
	path := filepath.Join(t.TempDir(), "saved"+recordings.Ext)
	runSave(t, m, path)
	if s := lastLine(screenText(m)); !strings.Contains(s, "saved 19 frames to "+path) {
		t.Fatalf("status: %s", s)
	}
	replayed, _ := rectest.Replay(t, path)
	if replayed.Len() != st.Len() || len(replayed.Streams()) != len(st.Streams()) || replayed.Streams()[0].State != capture.StreamDone {
		t.Errorf("replayed %d frames, %+v", replayed.Len(), replayed.Streams())
	}
	// An existing file is never replaced.
	runSave(t, m, path)
	if s := lastLine(screenText(m)); !strings.Contains(s, "file exists") {
		t.Errorf("saving over a file: %s", s)
	}
}

// While the session is recorded, the save key copies the recording so
// far, up to its last whole line; the status bar shows the recording.
func TestSaveKeyCopiesTheRecording(t *testing.T) {
	_, rec := recordSample(t, "wt")
	b, _ := os.ReadFile(rec)
	if err := os.WriteFile(rec, append(b, `{"k":"frame","t":1,"di`...), 0o600); err != nil { // a line being written
		t.Fatal(err)
	}
	m := New(Config{Store: capture.NewStore(capture.Config{}), Target: "demo", Recording: rec})
	t.Cleanup(func() { _ = m.Close() })
	m.setSize(160, 30)
	if s := lastLine(screenText(m)); !strings.Contains(s, "● REC") {
		t.Errorf("status: %s", s)
	}
	path := filepath.Join(t.TempDir(), "copy"+recordings.Ext)
	runSave(t, m, path)
	if s := lastLine(screenText(m)); !strings.Contains(s, "saved 19 frames") {
		t.Errorf("status: %s", s)
	}
	if e := recordings.Describe(path); e.Err != nil || e.Frames != 19 || !e.Ended {
		t.Errorf("copy %+v", e)
	}
}

// esc closes the save prompt without saving and the filter input is the
// filter's again.
func TestSaveKeyEsc(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	press(m, "ctrl+s")
	if cmd := press(m, "esc"); cmd != nil || m.filtering || m.input.Prompt != filterPrompt {
		t.Error("esc did not close the save prompt")
	}
	press(m, "/")
	if !m.filtering || m.saving || m.input.Prompt != filterPrompt {
		t.Error("the filter opened as a save prompt")
	}
}

// The save key writes the store with the command line's redaction: a
// --header secret echoed in a body never reaches the file, and the header
// names the transport.
func TestSaveKeyRedacts(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	st.Append(&capture.Frame{Time: t0, Dir: capture.In, Conn: "stdio", Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{"echo":"Bearer tok-0123456789"}}` + "\n")})
	m := New(Config{Store: st, Target: "demo", RecordHeader: recordings.Header{Target: "demo", Transport: "stdio"},
		RecordOptions: recordings.Options{Secrets: []string{"tok-0123456789"}}})
	t.Cleanup(func() { _ = m.Close() })
	m.setSize(140, 30)
	m.Update(refreshMsg{at: t0})
	path := filepath.Join(t.TempDir(), "s"+recordings.Ext)
	runSave(t, m, path)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "tok-0123456789") || !strings.Contains(string(b), `"transport":"stdio"`) {
		t.Errorf("saved:\n%s", b)
	}
}
