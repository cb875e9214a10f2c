package cli

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/oauthtest"
)

// TestDoctorClientCredentials: with --client-credentials the doctor runs
// the grant, as every command does, and walks the server with its token
// to tools/list; wrong credentials fail the auth step with a fix that
// names them, never the browser. tools with the same flags connects.
func TestDoctorClientCredentials(t *testing.T) {
	oauthEnv(t)
	srv := oauthtest.Start(t, oauthtest.Options{ClientCredentials: true,
		Preregistered: &oauthtest.Client{ID: "svc", Secret: "s3cret", AuthMethod: "client_secret_post"}})
	flags := []string{"--client-credentials", "--client-id", "svc"}
	r := mcpscope(t, append(append([]string{"doctor"}, flags...), "--client-secret", "s3cret", srv.MCPURL)...)
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, "client_credentials grant") || !strings.Contains(r.stdout, "✓ tools/list") {
		t.Fatalf("the doctor did not walk with the grant's token:\n%s\n%s", r.stdout, r.stderr)
	}
	// Every command gets a token bound to the server (RFC 8707's resource).
	r = mcpscope(t, append(append([]string{"tools"}, flags...), "--client-secret", "s3cret", srv.MCPURL)...)
	r.mustExit(t, ExitOK)
	r = mcpscope(t, append(append([]string{"doctor"}, flags...), "--client-secret", "wrong", srv.MCPURL)...)
	r.mustFailAt(t, "auth", ExitConnection)
	if !strings.Contains(r.stdout, "check --client-id and --client-secret") || strings.Contains(r.stdout, "browser") {
		t.Fatalf("the fix:\n%s", r.stdout)
	}
	if n := srv.Authorizations(); n != 0 {
		t.Fatalf("the doctor authorized in the browser %d times", n)
	}
}
