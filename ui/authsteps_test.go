package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/checklist"
)

// authReport is an OAuth checklist: the steps named pass, then, when
// failed is set, that step fails with detail.
func authReport(passed []string, failed, detail string) checklist.Report {
	r := checklist.Report{Title: "authorization", Target: "http://127.0.0.1:1/mcp"}
	for _, s := range passed {
		r.Results = append(r.Results, checklist.Result{Step: s, Status: checklist.Passed, Detail: s + " ok"})
	}
	if failed != "" {
		r.Results = append(r.Results, checklist.Result{Step: failed, Status: checklist.Failed, Detail: detail, Class: checklist.Connection})
	}
	return r
}

// newAuthModel is a model with a screen, no connection made.
func newAuthModel(t *testing.T) (*Model, *cmdRunner) {
	t.Helper()
	m := New(Config{Store: capture.NewStore(capture.Config{}), Target: "http://127.0.0.1:1/mcp"})
	t.Cleanup(func() { _ = m.Close() })
	r := newRunner(t, m)
	r.Send(tea.WindowSizeMsg{Width: 160, Height: 30})
	return m, r
}

// TestAuthChecklistShowsTheFailedStep: a flow that failed shows ✗ at the
// step that failed, and only there, with the server's text in its error
// shown escaped, never acted on by the terminal.
func TestAuthChecklistShowsTheFailedStep(t *testing.T) {
	m, r := newAuthModel(t)
	hostile := "the token endpoint answered \x1b]0;pwned\x07 \u009b2J \u202eevil"
	passed := []string{"challenge", "resource metadata", "server metadata", "registration", "browser", "authorization"}
	r.Send(AuthStepsMsg{Report: authReport(passed, "token", hostile), Done: true, Seq: 1})
	screen := r.ScreenText()
	var marked []string
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, "✗") {
			marked = append(marked, strings.TrimSpace(line))
		}
	}
	if len(marked) != 1 || !strings.HasPrefix(marked[0], "✗ token") {
		t.Fatalf("lines marked ✗: %q, want the token step's alone:\n%s", marked, screen)
	}
	for _, s := range passed {
		if !strings.Contains(screen, "✓ "+s) {
			t.Errorf("step %s is not shown passed:\n%s", s, screen)
		}
	}
	if !strings.Contains(screen, `\x1b]0;pwned\x07`) || !strings.Contains(screen, "token failed: the token endpoint answered") {
		t.Errorf("the error is not shown escaped:\n%s", screen)
	}
	if raw := m.View().Content; strings.Contains(raw, "\x1b]0;pwned") || strings.ContainsAny(raw, "\u009b\u202e") {
		t.Fatalf("the server's control characters reached the terminal: %q", raw)
	}
}

// TestAuthChecklistKeepsTheNewestReport: the flow's messages may arrive
// out of order; an older one never replaces a newer one on the screen.
func TestAuthChecklistKeepsTheNewestReport(t *testing.T) {
	_, r := newAuthModel(t)
	all := []string{"challenge", "resource metadata", "server metadata", "registration", "browser", "authorization", "token"}
	r.Send(AuthStepsMsg{Report: authReport(all[:2], "", ""), Seq: 2})
	r.Send(AuthStepsMsg{Report: authReport(all, "", ""), Done: true, Seq: 4})
	r.Send(AuthStepsMsg{Report: authReport(all[:5], "", ""), Seq: 3})
	r.Send(AuthStepsMsg{Report: authReport(all[:1], "", ""), Seq: 1})
	screen := r.ScreenText()
	if !strings.Contains(screen, "every step passed") || strings.Contains(screen, "under way") || !strings.Contains(screen, "✓ token") {
		t.Fatalf("an older checklist replaced the newest:\n%s", screen)
	}
}
