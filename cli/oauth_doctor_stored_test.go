package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/tokenstore"
	"github.com/mcpscope/mcpscope/internal/testkit/oauthtest"
)

// TestDoctorNamesCorruptStoredToken: a stored token holding control
// characters is not sent by the doctor either, and the doctor says so on
// stderr with the command that forgets it.
func TestDoctorNamesCorruptStoredToken(t *testing.T) {
	oauthEnv(t)
	srv := oauthtest.Start(t, oauthtest.Options{DCR: true})
	store, err := tokenstore.Default()
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Save(tokenstore.Entry{
		Issuer: srv.Issuer, Resource: srv.MCPURL, ClientID: "c", TokenURL: srv.TokenEndpoint,
		AccessToken: "stored\r\nX-Injected: 1", TokenType: "Bearer", Expiry: time.Now().Add(time.Hour), Saved: time.Now(),
	}); err != nil {
		t.Fatal(err)
	}
	r := mcpscope(t, "doctor", srv.MCPURL)
	if !strings.Contains(r.stderr, "control characters") || !strings.Contains(r.stderr, "mcpscope auth logout "+srv.MCPURL) {
		t.Fatalf("the doctor does not name the corrupt token and auth logout:\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
}
