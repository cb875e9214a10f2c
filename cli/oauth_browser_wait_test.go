package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/oauthtest"
)

// An interactive login on a 401 met while the transport comes up (the
// WebSocket upgrade, the legacy SSE stream's GET) is bounded by its own
// wait for the browser, not cut short by the start limit: a browser that
// never comes back is named as such, and the run exits as a timeout.
func TestOAuthBrowserWaitIsNotCutByTheStartLimit(t *testing.T) {
	oauthEnv(t)
	// A browser the user never uses: it opens, and no redirect comes back.
	idle := filepath.Join(t.TempDir(), "idle-browser")
	if err := os.WriteFile(idle, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BROWSER", idle)
	for _, tc := range []struct {
		name string
		args func(t *testing.T) []string
	}{
		{"ws", func(t *testing.T) []string {
			srv := oauthtest.Start(t, oauthtest.Options{DCR: true, MCPHandler: demoWSHandler(t)})
			return []string{"ws" + strings.TrimPrefix(srv.MCPURL, "http")}
		}},
		{"legacy sse", func(t *testing.T) []string {
			srv := oauthtest.Start(t, oauthtest.Options{DCR: true})
			return []string{"--transport", "sse", srv.MCPURL}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mcpscope(t, append([]string{"tools", "--timeout", "1s"}, tc.args(t)...)...)
			if r.code != ExitTimeout {
				t.Fatalf("exit %d without an authorization, want %d (a timeout):\n%s", r.code, ExitTimeout, r.stderr)
			}
			if want := "no redirect from the browser within 1s (--timeout)"; !strings.Contains(r.stderr, want) {
				t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
			}
		})
	}
}
