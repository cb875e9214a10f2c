package cli

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/oauthtest"
)

// An interactive login on a WebSocket 401 is bounded by its own wait for
// the browser, not cut short by the upgrade's start limit: a browser that
// never comes back is named as such.
func TestOAuthBrowserWaitIsNotCutByTheStartLimit(t *testing.T) {
	oauthEnv(t)
	idle, err := exec.LookPath("true")
	if err != nil {
		t.Skip("no true program to stand for a browser the user never uses")
	}
	t.Setenv("BROWSER", idle)
	srv := oauthtest.Start(t, oauthtest.Options{DCR: true, MCPHandler: demoWSHandler(t)})
	wsURL := "ws" + strings.TrimPrefix(srv.MCPURL, "http")
	r := mcpscope(t, "tools", "--timeout", "1s", wsURL)
	if r.code != ExitTimeout {
		t.Fatalf("exit %d without an authorization, want %d (a timeout):\n%s", r.code, ExitTimeout, r.stderr)
	}
	if want := "no redirect from the browser within 1s (--timeout)"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
	}
}
