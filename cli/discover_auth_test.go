package cli

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/oauthtest"
)

// TestDiscoverAuthorizationFailureReported: when the server refuses the
// server/discover probe for want of authorization and authorizing fails
// (here: the authorization server offers no way to register and no
// --client-id was given; or --no-auth), the error is the probe's
// authorization failure, not that of an initialize sent after it.
func TestDiscoverAuthorizationFailureReported(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"the flow fails", nil, "no configured client registration methods"},
		{"--no-auth", []string{"--no-auth"}, "401"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			oauthEnv(t)
			srv := oauthtest.Start(t, oauthtest.Options{})
			r := mcpscope(t, append(append([]string{"tools"}, tc.args...), srv.MCPURL)...)
			r.mustExit(t, ExitConnection)
			if !strings.Contains(r.stderr, "server/discover (id 1)") || !strings.Contains(r.stderr, tc.want) ||
				strings.Contains(r.stderr, "initialize") {
				t.Fatalf("stderr does not report the probe's authorization failure (%q):\n%s", tc.want, r.stderr)
			}
			if n := len(seen(srv, "POST", "/mcp")); n != 1 {
				t.Errorf("%d POSTs reached the MCP endpoint, want the probe's alone", n)
			}
		})
	}
}
