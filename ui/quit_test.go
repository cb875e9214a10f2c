package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
)

// connectedModel returns a test model connected to a FakePeer that leaves
// requests unanswered.
func connectedModel(t *testing.T) *Model {
	t.Helper()
	m := newTestModel(t, capture.NewStore(capture.Config{}), 120, 30)
	f, s := screentest.Connect(t, m.cfg.Store)
	f.SetHold(true)
	m.conn = connection{link: Link{Transport: f, Session: s}, gen: 1, ready: true}
	return m
}

// hintLine is the line above the status bar.
func hintLine(m *Model) string {
	lines := strings.Split(screenText(m), "\n")
	return lines[len(lines)-2]
}

// With requests in flight, q asks in the hint line; esc stays, and q
// asked quits.
func TestQuitAsksWithRequestsInFlight(t *testing.T) {
	m := connectedModel(t)
	screentest.RunInBackground(press(m, "t"))
	screentest.RunInBackground(press(m, "t"))
	screentest.WaitFor(t, "two requests in flight", func() bool { return m.inFlight() == 2 })

	if cmd := press(m, "q"); cmd != nil || m.quitting {
		t.Fatal("q with requests in flight quit without asking")
	}
	if h := hintLine(m); !strings.Contains(h, "2 requests in flight — q again to quit, esc to stay") {
		t.Fatalf("hint line %q does not ask", h)
	}
	press(m, "esc")
	if m.quitting || strings.Contains(hintLine(m), "in flight") {
		t.Fatalf("esc did not stay: quitting %v, hint line %q", m.quitting, hintLine(m))
	}
	press(m, "q")
	press(m, "j") // another key stays too, and does what it does
	if m.quitting || strings.Contains(hintLine(m), "in flight") {
		t.Fatal("a key other than q did not stay")
	}
	press(m, "q")
	if press(m, "q") == nil || !m.quitting {
		t.Fatal("q asked did not quit")
	}
}

// With no request in flight, q quits at once.
func TestQuitWithoutRequestsInFlight(t *testing.T) {
	m := connectedModel(t)
	if press(m, "q") == nil || !m.quitting {
		t.Fatal("q did not close the session")
	}
	m = newTestModel(t, sampleStore(t), 120, 30)
	cmd := press(m, "q")
	if cmd == nil {
		t.Fatal("q without a connection did not quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("q without a connection did not end the program")
	}
}
