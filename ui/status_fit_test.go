package ui

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Why the connection ended stays in the status line through the keys
// that follow, as a failed connect's reason does, until a reconnect.
func TestConnectionEndStaysThroughKeys(t *testing.T) {
	m := connectedModel(t)
	m.Update(linkDownMsg{gen: 1, err: errors.New("server exited with status 0")})
	press(m, "k")
	press(m, "j")
	if !strings.Contains(m.status.err, "the connection ended: server exited with status 0") {
		t.Errorf("after two keys the status error is %q, want why the connection ended", m.status.err)
	}
}

// bottomLines are the two last lines of the screen: the line over the
// status bar and the bar.
func bottomLines(m *Model) string {
	lines := strings.Split(screenText(m), "\n")
	return strings.Join(lines[len(lines)-2:], "\n")
}

// At 80 columns, recording, the message of a key that does nothing here
// is shown whole with its advice, beside ● REC or on its own line.
func TestKeyMessagesWholeAt80(t *testing.T) {
	m := connectedModel(t)
	m.cfg.Recording = "/tmp/rec.jsonl"
	m.setPanes(paneSet{paneTraffic: true, paneDetail: true, paneHex: true})
	m.setSize(80, 24)
	for _, k := range []string{"R", "a", "o", "z", "]", "ctrl+r", "2", "3", "6"} {
		m.status = statusLine{}
		press(m, k)
		msg := m.status.err + m.status.message
		if msg == "" {
			t.Fatalf("%s said nothing", k)
		}
		got := bottomLines(m)
		if !strings.Contains(got, msg) {
			t.Errorf("%s: %q is not shown whole at 80 columns:\n%s", k, msg, got)
		}
		if !strings.Contains(got, "● REC") {
			t.Errorf("%s: ● REC is not shown at 80 columns:\n%s", k, got)
		}
	}
}

// A sentence too long for any line is cut at its end, never in its
// middle; a note naming a file keeps the file's name.
func TestLongMessagesCutAtTheirEnd(t *testing.T) {
	m := connectedModel(t)
	m.setSize(80, 24)
	sentence := "the first words say what happened " + strings.Repeat("and more words follow ", 6) + "LAST"
	m.status.note(sentence)
	got := bottomLines(m)
	if !strings.Contains(got, "the first words say what happened and more") || strings.Contains(got, "LAST") {
		t.Errorf("a long sentence is not cut at its end:\n%s", got)
	}
	m.status.notePath("saved 3 frames to /" + strings.Repeat("deep/", 20) + "capture.jsonl")
	got = bottomLines(m)
	if !strings.Contains(got, "capture.jsonl") || !strings.Contains(got, "saved 3 frames") {
		t.Errorf("a saved file's note lost its name or its head:\n%s", got)
	}
	if w := ansi.StringWidth(strings.Split(got, "\n")[0]); w != 80 {
		t.Errorf("the message line is %d columns, want 80", w)
	}
}

// While the help is shown, a key that is not the help's own acts on
// nothing behind it: it says the help is open.
func TestHelpTakesTheKeys(t *testing.T) {
	m := connectedModel(t)
	m.cfg.Demo = true
	before := m.cfg.Store.Len()
	press(m, "?")
	if cmd := press(m, "a"); cmd != nil {
		t.Error("a under the help returned a command")
	}
	if n := m.cfg.Store.Len(); n != before {
		t.Errorf("a under the help sent %d frames", n-before)
	}
	if !m.showHelp || m.status.message != "help is open: esc closes it" {
		t.Errorf("a under the help: shown %v, status %q", m.showHelp, m.status.message)
	}
	press(m, "esc")
	if m.showHelp {
		t.Error("esc did not close the help")
	}
	press(m, "?")
	if press(m, "q") == nil || !m.quitting {
		t.Error("q under the help, as its hint bar says, did not quit")
	}
}

// With the wire in front of the explorer, e says the explorer is open and
// how to return to it, whole at 80 columns: the screen's name, not its
// whole title.
func TestScreenOpenNoteWholeAt80(t *testing.T) {
	m := connectedModel(t)
	m.setSize(80, 24)
	press(m, "e")
	press(m, "ctrl+o")
	press(m, "e")
	if got := bottomLines(m); !strings.Contains(got, "Explorer is open: ctrl+o returns to it") {
		t.Errorf("e with the explorer behind the wire at 80 columns:\n%s", got)
	}
}
