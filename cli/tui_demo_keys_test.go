package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// helpShows presses ? until the help screen is up (a key read while the
// terminal's input is still being parsed can be lost) and reports whether
// it lists text.
func (r *tuiRun) helpShows(t *testing.T, text string) bool {
	t.Helper()
	deadline := time.Now().Add(guard.Hang)
	for time.Now().Before(deadline) {
		go func() { _, _ = r.keys.Write([]byte("?")) }()
		for wait := time.Now().Add(3 * time.Second); time.Now().Before(wait); time.Sleep(20 * time.Millisecond) {
			r.mu.Lock()
			screen := r.screen
			r.mu.Unlock()
			if strings.Contains(screen, "Keys of mcpscope") {
				return strings.Contains(screen, text)
			}
		}
	}
	t.Fatal("the help never opened")
	return false
}

// The demo's shortcut keys are the demo command's alone: `mcpscope demo`
// lists read_file in its help, the same server opened as a TARGET does not.
func TestDemoShortcutsOnlyUnderTheDemoCommand(t *testing.T) {
	r := startTUI(t, "demo")
	r.waitFor(t, "MCP-Flow READY", "result · tools/list")
	if !r.helpShows(t, "read_file 1 MiB") {
		t.Error("the demo's help does not list R (read_file)")
	}
	if code := r.quit(t); code != ExitOK {
		t.Fatalf("demo: exit %d; stderr: %s", code, r.errb.String())
	}

	d := flowDemo(t)
	r = startTUI(t, "--cert-hash", d.CertHash(), d.Target())
	r.waitFor(t, "MCP-Flow READY", "mcpscope-demo")
	if r.helpShows(t, "read_file") {
		t.Error("the help of a TARGET lists the demo's read_file key")
	}
	if code := r.quit(t); code != ExitOK {
		t.Fatalf("TARGET: exit %d; stderr: %s", code, r.errb.String())
	}
}
