package ui

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Wizards in the real program against the demo, over MCP-Flow and over
// stdio: keys in, screens and captured traffic checked.

// runWizardProgram starts the program with dial and waits for the
// connection.
func runWizardProgram(t *testing.T, dial Dialer, connected string) (*screenProbe, *teatest.TestModel, *capture.Store) {
	t.Helper()
	store := capture.NewStore(capture.Config{})
	probe := &screenProbe{Model: New(Config{Store: store, Dial: dial, Target: "demo"})}
	tm := probe.run(t, 230, 45) // the screen keeps 138 columns beside the wire
	probe.waitText(t, connected)
	return probe, tm, store
}

// openWizardOf opens the explorer, filters the tools to tool and starts
// its wizard.
func openWizardOf(t *testing.T, probe *screenProbe, tm *teatest.TestModel, tool string) {
	t.Helper()
	sendKeys(tm, "e")
	probe.waitText(t, "interactive server: enter starts a [wizard] tool")
	sendKeys(tm, "/")
	sendText(tm, tool)
	sendKeys(tm, "enter")
	probe.waitText(t, "tools match", "\""+tool+"\"", "› "+tool+" ")
	sendKeys(tm, "enter")
	probe.waitText(t, "Wizard · "+tool)
}

// quitProgram leaves the explorer and quits.
func quitProgram(t *testing.T, probe *screenProbe, tm *teatest.TestModel) {
	t.Helper()
	probe.waitScreen(t, "the panes again", func(s string) bool {
		if strings.Contains(s, "Cancel the server's session?") {
			sendKeys(tm, "y") // esc keeps the session: y cancels it
			return false
		}
		if strings.Contains(s, "Explorer ·") || strings.Contains(s, "Wizard ·") {
			sendKeys(tm, "esc") // one more level down; an esc on the panes does nothing
			return false
		}
		return true
	})
	sendKeys(tm, "q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(guard.Hang))
}

// walkBookTrip books a trip through the wizard, with a past date the
// server refuses and the user answers again, then starts a second
// session and cancels it with esc.
func walkBookTrip(t *testing.T, probe *screenProbe, tm *teatest.TestModel, store *capture.Store) {
	t.Helper()
	openWizardOf(t, probe, tm, "book_trip")
	probe.waitText(t, "Where do you want to go?", "step 1 of 5", "waiting_user", "expires in")
	sendText(tm, "Oslo")
	sendKeys(tm, "enter")
	probe.waitText(t, "Which class?", "step 2 of 5")
	sendKeys(tm, "down", "down", "enter")
	probe.waitText(t, "When do you leave?", "step 3 of 5")
	sendText(tm, "2020-01-01")
	sendKeys(tm, "enter")
	probe.waitText(t, "✗ refused: 2020-01-01 is not after today", "→ Use a date after ")
	for range 10 {
		sendKeys(tm, "backspace")
	}
	date := screentest.FutureDate()
	sendText(tm, date)
	sendKeys(tm, "enter")
	probe.waitText(t, "How many travellers?", "step 4 of 5")
	sendKeys(tm, "backspace")
	sendText(tm, "2")
	sendKeys(tm, "enter")
	probe.waitText(t, "Book business to Oslo on "+date+" for 2?")
	sendKeys(tm, "y")
	probe.waitText(t, "✓ completed · success", "Booked business to Oslo on "+date+" for 2 traveller(s): BK-", `"bookingRef"`)
	if got := screentest.RespondValues(t, store); len(got) != 6 || got[2] != `"2020-01-01"` || got[3] != `"`+date+`"` {
		t.Errorf("interaction.respond values %v", got)
	}

	sendKeys(tm, "esc")
	probe.waitText(t, "tools match", "\"book_trip\"")
	sendKeys(tm, "enter")
	probe.waitText(t, "Where do you want to go?", "step 1 of 5", "waiting_user") // the wizard's, not the detail pane's
	sendKeys(tm, "esc")
	probe.waitText(t, "Cancel the server's session?")
	sendKeys(tm, "y")
	probe.waitText(t, "the session was cancelled", "the server confirmed: cancelled")
	if got := screentest.SentRequests(store, mcp.MethodInteractionCancel); len(got) != 1 {
		t.Errorf("interaction.cancel sent %d times", len(got))
	}
}

// TestWizardFlowBookTripWebTransport walks book_trip over MCP-Flow.
func TestWizardFlowBookTripWebTransport(t *testing.T) {
	d := flowtest.Start(t, flow.Config{})
	probe, tm, store := runWizardProgram(t, flowDialer(d), "MCP-Flow READY")
	walkBookTrip(t, probe, tm, store)
	quitProgram(t, probe, tm)
}

// TestWizardFlowBookTripStdio walks book_trip over stdio, the demo served
// by a child process as `mcpscope serve --stdio` does.
func TestWizardFlowBookTripStdio(t *testing.T) {
	probe, tm, store := runWizardProgram(t, demoStdioDialer(t), "MCP connected")
	walkBookTrip(t, probe, tm, store)
	quitProgram(t, probe, tm)
	for _, f := range store.Window(1, store.Len()) {
		if f.Conn != "stdio" && f.Chan.Kind != capture.Stderr {
			t.Fatalf("a frame of connection %q: the walk was not over stdio", f.Conn)
		}
	}
}

// TestWizardFlowStatelessToken walks a step of book_trip_stateless and
// opens the state view with the decoded token.
func TestWizardFlowStatelessToken(t *testing.T) {
	d := flowtest.Start(t, flow.Config{})
	probe, tm, _ := runWizardProgram(t, flowDialer(d), "MCP-Flow READY")
	openWizardOf(t, probe, tm, "book_trip_stateless")
	probe.waitText(t, "token: sessionId session_", "(signed)", "Where do you want to go?")
	sendText(tm, "Oslo")
	sendKeys(tm, "enter")
	probe.waitText(t, "Which class?")
	sendKeys(tm, "ctrl+g")
	probe.waitText(t, "Wizard · book_trip_stateless · interaction.getState", `#0 Where do you want to go? → "Oslo"`,
		"token · the sessionId is a signed token", "(not verified by the client)")
	sendKeys(tm, "esc")
	probe.waitText(t, "Which class?")
	quitProgram(t, probe, tm)
}

// TestWizardFlowUploadReport answers upload_report's file prompt with a
// file of the working directory: the server reports its sha256.
func TestWizardFlowUploadReport(t *testing.T) {
	dir := t.TempDir()
	content := []byte("city,temp\nOslo,4\n")
	if err := os.WriteFile(filepath.Join(dir, "report.csv"), content, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "photo.png"), []byte("png"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	sum := sha256.Sum256(content)
	d := flowtest.Start(t, flow.Config{})
	probe, tm, _ := runWizardProgram(t, flowDialer(d), "MCP-Flow READY")
	openWizardOf(t, probe, tm, "upload_report")
	probe.waitText(t, "Choose the report to upload", "accepts .csv, .json, .txt", "photo.png", "report.csv")
	sendKeys(tm, "down", "enter")
	probe.waitText(t, "✓ completed · success", "Received report.csv: 17 bytes, sha256 "+hex.EncodeToString(sum[:]))
	quitProgram(t, probe, tm)
}
