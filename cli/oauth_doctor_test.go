package cli

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/oauthtest"
)

// TestDoctorSuggestsAuthorizingOnlyWhereTheFlowWould: the auth step's
// fix follows what the OAuth flow would do. Metadata naming another
// resource (which the flow refuses, RFC 9728 §3.3) or an authorization
// server mcpscope cannot register at gets the flow's reason and
// --header, not "connect once to authorize".
func TestDoctorSuggestsAuthorizingOnlyWhereTheFlowWould(t *testing.T) {
	oauthEnv(t)
	for _, tc := range []struct {
		name string
		opts oauthtest.Options
		why  string
	}{
		{"other resource", oauthtest.Options{DCR: true, PRMResource: "https://elsewhere.example/mcp"}, "RFC 9728"},
		{"no registration", oauthtest.Options{}, "no way to register mcpscope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := oauthtest.Start(t, tc.opts)
			r := mcpscope(t, "doctor", srv.MCPURL)
			r.mustFailAt(t, "auth", ExitConnection)
			if strings.Contains(r.stdout, "connect once") || !strings.Contains(r.stdout, "mcpscope would not authorize here") || !strings.Contains(r.stdout, tc.why) {
				t.Fatalf("the fix does not follow the flow (%s):\n%s", tc.why, r.stdout)
			}
			if n := srv.Authorizations(); n != 0 {
				t.Fatalf("the doctor authorized %d times", n)
			}
			if n := len(seen(srv, "POST", "/register")); n != 0 {
				t.Fatalf("the doctor registered %d times", n)
			}
		})
	}
}
