package cli

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	demows "github.com/mcpscope/mcpscope/demo/ws"
	"github.com/mcpscope/mcpscope/internal/testkit/oauthtest"
)

// TestOAuthDynamicRegistration: a server that answers 401 is authorized
// end to end — protected resource metadata from the challenge, RFC 8414
// metadata, dynamic registration, the browser, PKCE S256 with the
// resource, the token — the call goes through, the token is stored and
// used by the next run without a second authorization, `auth status`
// shows it and `auth logout` forgets it. No secret reaches the output or
// the recording.
func TestOAuthDynamicRegistration(t *testing.T) {
	oauthEnv(t)
	srv := oauthtest.Start(t, oauthtest.Options{PRM: oauthtest.PRMHeader, AS: oauthtest.ASOAuth, DCR: true, RefreshTokens: true})
	rec := filepath.Join(t.TempDir(), "s.jsonl")
	r := mcpscope(t, append(echoCall("echo", "hello"), "--trace", "--record", rec, srv.MCPURL)...)
	r.mustExit(t, 0)
	if !strings.Contains(r.stdout, "hello") {
		t.Fatalf("no echo in %s", r.stdout)
	}
	if n := len(seen(srv, "POST", "/register")); n != 1 {
		t.Fatalf("%d registrations, want 1", n)
	}
	q := authorizeQuery(t, srv, 0)
	if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("resource") != srv.Resource {
		t.Fatalf("authorization request %v: want S256 PKCE and resource %s", q, srv.Resource)
	}
	tokens := seen(srv, "POST", "/token")
	if len(tokens) != 1 || tokens[0].Form.Get("code_verifier") == "" || tokens[0].Form.Get("resource") != srv.Resource {
		t.Fatalf("token requests %+v", tokens)
	}
	issued := srv.Tokens()
	if len(issued) != 1 {
		t.Fatalf("%d tokens issued", len(issued))
	}
	for _, want := range []string{"/.well-known/oauth-authorization-server", "/register HTTP/1.1", "/token HTTP/1.1", "/callback?code=<redacted "} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the trace does not show %q:\n%s", want, r.stderr)
		}
	}
	saved, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	secrets := []string{issued[0].Access, issued[0].Refresh, tokens[0].Form.Get("code"), tokens[0].Form.Get("code_verifier")}
	mustNotHold(t, "stdout", r.stdout, secrets...)
	mustNotHold(t, "the trace", r.stderr, secrets...)
	mustNotHold(t, "the recording", string(saved), secrets...)

	again := mcpscope(t, "tools", srv.MCPURL)
	again.mustExit(t, 0)
	if n := srv.Authorizations(); n != 1 {
		t.Fatalf("the stored token was not used: %d authorizations", n)
	}
	status := mcpscope(t, "auth", "status", srv.MCPURL)
	status.mustExit(t, 0)
	for _, want := range []string{srv.Issuer, "(dynamic)", "valid for", "a refresh token"} {
		if !strings.Contains(status.stdout, want) {
			t.Errorf("auth status does not say %q:\n%s", want, status.stdout)
		}
	}
	mustNotHold(t, "auth status", status.stdout, secrets...)
	out := mcpscope(t, "auth", "logout", srv.MCPURL)
	out.mustExit(t, 0)
	if !strings.Contains(out.stdout, "forgot the token") {
		t.Fatalf("logout said %q", out.stdout)
	}
	after := mcpscope(t, "auth", "status", srv.MCPURL)
	if !strings.Contains(after.stdout, "no OAuth token stored") {
		t.Fatalf("status after logout: %s", after.stdout)
	}
}

// TestOAuthMetadataVariants: the protected resource metadata is found
// from the challenge, at the path-suffixed and at the root well-known
// URL, or not at all (the 2025-03-26 fallback); the authorization
// server's at RFC 8414 and OpenID URLs with path insertion, OpenID with
// path appending, or not at all (the fallback endpoints).
func TestOAuthMetadataVariants(t *testing.T) {
	for _, tc := range []struct {
		name       string
		o          oauthtest.Options
		metaSuffix string // the path of the metadata read last
	}{
		{"header+oauth", oauthtest.Options{PRM: oauthtest.PRMHeader, AS: oauthtest.ASOAuth, IssuerPath: "/tenant1"}, "/.well-known/oauth-authorization-server/tenant1"},
		{"path+oidc", oauthtest.Options{PRM: oauthtest.PRMPath, AS: oauthtest.ASOIDC, IssuerPath: "/tenant1"}, "/.well-known/openid-configuration/tenant1"},
		{"root+oidc-append", oauthtest.Options{PRM: oauthtest.PRMRoot, AS: oauthtest.ASOIDCAppend, IssuerPath: "/t2"}, "/t2/.well-known/openid-configuration"},
		{"none+none", oauthtest.Options{PRM: oauthtest.PRMNone, AS: oauthtest.ASNone}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			oauthEnv(t)
			tc.o.DCR = true
			srv := oauthtest.Start(t, tc.o)
			mcpscope(t, append(echoCall("echo", "v"), srv.MCPURL)...).mustExit(t, 0)
			if tc.metaSuffix != "" {
				if len(seen(srv, "GET", tc.metaSuffix)) == 0 {
					t.Errorf("the authorization server metadata was not read at %s", tc.metaSuffix)
				}
			}
			if srv.Authorizations() != 1 {
				t.Errorf("%d authorizations", srv.Authorizations())
			}
		})
	}
}

// TestOAuthPreregisteredClient: --client-id and --client-secret are used
// instead of a registration, the secret sent as the server's metadata
// asks (client_secret_basic or client_secret_post) and never shown, plain
// or as the Basic credentials: the flow's frames are in the recording, on
// the HTTP channel under their connection names, with the secret masked.
func TestOAuthPreregisteredClient(t *testing.T) {
	const id, secret = "mcpscope-ci", "pre-registered-secret"
	basicCreds := base64.StdEncoding.EncodeToString([]byte(id + ":" + secret))
	for _, method := range []string{"client_secret_basic", "client_secret_post"} {
		t.Run(method, func(t *testing.T) {
			oauthEnv(t)
			srv := oauthtest.Start(t, oauthtest.Options{
				Preregistered:    &oauthtest.Client{ID: id, Secret: secret, AuthMethod: method},
				TokenAuthMethods: []string{method},
			})
			rec := filepath.Join(t.TempDir(), "s.jsonl")
			r := mcpscope(t, append(echoCall("echo", "p"), "--trace", "--record", rec, "--client-id", id, "--client-secret", secret, srv.MCPURL)...)
			r.mustExit(t, 0)
			if got := authorizeQuery(t, srv, 0).Get("client_id"); got != id {
				t.Fatalf("client_id %q", got)
			}
			tok := seen(srv, "POST", "/token")
			if len(tok) != 1 {
				t.Fatalf("%d token requests", len(tok))
			}
			basic := tok[0].Header.Get("Authorization") == "Basic "+basicCreds
			posted := tok[0].Form.Get("client_secret") == secret
			if basic != (method == "client_secret_basic") || posted != (method == "client_secret_post") {
				t.Fatalf("%s: basic %v, posted %v", method, basic, posted)
			}
			saved, err := os.ReadFile(rec)
			if err != nil {
				t.Fatal(err)
			}
			secrets := []string{secret, basicCreds, srv.Tokens()[0].Access, tok[0].Form.Get("code"), tok[0].Form.Get("code_verifier")}
			mustNotHold(t, "the trace", r.stderr, secrets...)
			mustNotHold(t, "the recording", string(saved), secrets...)

			frames := oauthFrames(t, rec)
			if !strings.Contains(frames["oauth browser"], "open "+srv.AuthorizationEndpoint+"?") {
				t.Errorf("no frame of the browser opened: %q", frames["oauth browser"])
			}
			if cb := frames["oauth callback"]; !strings.Contains(cb, "GET /callback?code=<redacted ") {
				t.Errorf("no callback frame with its code masked: %q", cb)
			}
			token := ""
			for conn, f := range frames {
				if strings.HasPrefix(f, "POST /oauth2/token ") {
					if _, err := strconv.Atoi(strings.TrimPrefix(conn, "oauth ")); err != nil {
						t.Errorf("the token request is on connection %q, not oauth N", conn)
					}
					token = f
				}
			}
			wantMasked := fmt.Sprintf("client_secret=<redacted %d bytes>", len(secret))
			if method == "client_secret_basic" {
				wantMasked = fmt.Sprintf("Authorization: Basic [redacted %d bytes]", len(basicCreds))
			}
			if !strings.Contains(token, wantMasked) || !strings.Contains(token, `"access_token":"<redacted `) {
				t.Errorf("the token exchange's frames do not show %q and the token masked:\n%s", wantMasked, token)
			}
		})
	}
}

// TestOAuthClientIDMetadataDocument: where the server supports Client ID
// Metadata Documents, --client-metadata-url is the client id and nothing
// is registered.
func TestOAuthClientIDMetadataDocument(t *testing.T) {
	oauthEnv(t)
	srv := oauthtest.Start(t, oauthtest.Options{CIMD: true, DCR: true})
	const doc = "https://mcpscope.example/oauth/client.json"
	mcpscope(t, append(echoCall("echo", "c"), "--client-metadata-url", doc, srv.MCPURL)...).mustExit(t, 0)
	if got := authorizeQuery(t, srv, 0).Get("client_id"); got != doc {
		t.Fatalf("client_id %q, want %q", got, doc)
	}
	if n := len(seen(srv, "POST", "/register")); n != 0 {
		t.Fatalf("%d registrations with a metadata document", n)
	}
}

// TestOAuthClientIDMetadataDocumentUnsupported: with --client-metadata-url
// but an authorization server that does not advertise Client ID Metadata
// Documents, mcpscope registers dynamically and says why, on stderr and
// in a frame beside the registration's.
func TestOAuthClientIDMetadataDocumentUnsupported(t *testing.T) {
	oauthEnv(t)
	srv := oauthtest.Start(t, oauthtest.Options{DCR: true})
	const doc = "https://mcpscope.example/oauth/client.json"
	rec := filepath.Join(t.TempDir(), "s.jsonl")
	r := mcpscope(t, append(echoCall("echo", "c"), "--record", rec, "--client-metadata-url", doc, srv.MCPURL)...)
	r.mustExit(t, 0)
	if n := len(seen(srv, "POST", "/register")); n != 1 {
		t.Fatalf("%d registrations, want 1", n)
	}
	if got := authorizeQuery(t, srv, 0).Get("client_id"); got == doc || got == "" {
		t.Fatalf("client_id %q, want the dynamically registered one", got)
	}
	const why = "does not support Client ID Metadata Documents"
	if !strings.Contains(r.stderr, why) {
		t.Fatalf("stderr does not say why the document was not used:\n%s", r.stderr)
	}
	said := false
	for conn, frames := range oauthFrames(t, rec) {
		said = said || strings.Contains(frames, "POST /oauth2/register") && strings.Contains(frames, why) && conn != "oauth callback"
	}
	if !said {
		t.Fatalf("no frame beside the registration's says %q", why)
	}
}

// TestOAuthScopeChoice: the challenge's scope is asked for; without one,
// the protected resource metadata's scopes_supported.
func TestOAuthScopeChoice(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    oauthtest.Options
		want []string
	}{
		{"challenge", oauthtest.Options{ChallengeScope: "mcp:call", ScopesSupported: []string{"mcp:call", "mcp:admin"}}, []string{"mcp:call"}},
		{"supported", oauthtest.Options{ScopesSupported: []string{"mcp:call", "mcp:admin"}}, []string{"mcp:call", "mcp:admin"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			oauthEnv(t)
			tc.o.DCR = true
			srv := oauthtest.Start(t, tc.o)
			mcpscope(t, append(echoCall("echo", "s"), srv.MCPURL)...).mustExit(t, 0)
			got := strings.Fields(authorizeQuery(t, srv, 0).Get("scope"))
			got = slices.DeleteFunc(got, func(s string) bool { return s == "offline_access" })
			slices.Sort(got)
			slices.Sort(tc.want)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("scope %q, want %q", got, tc.want)
			}
		})
	}
}

// TestOAuthStepUp: a 403 insufficient_scope authorizes again for the
// scopes asked, and the call goes through; once, not in a loop.
func TestOAuthStepUp(t *testing.T) {
	oauthEnv(t)
	srv := oauthtest.Start(t, oauthtest.Options{DCR: true, ChallengeScope: "mcp:call", StepUpTool: "admin", StepUpScope: "mcp:admin"})
	r := mcpscope(t, append(echoCall("admin", "up"), srv.MCPURL)...)
	r.mustExit(t, 0)
	if srv.Authorizations() != 2 {
		t.Fatalf("%d authorizations, want 2 (the first, then the step-up)", srv.Authorizations())
	}
	if got := strings.Fields(authorizeQuery(t, srv, 1).Get("scope")); !slices.Contains(got, "mcp:admin") || !slices.Contains(got, "mcp:call") {
		t.Fatalf("step-up scope %q: want mcp:call and mcp:admin", got)
	}
}

// TestOAuthRefresh: a token the server stops taking (401 invalid_token)
// is refreshed with the refresh token, naming the resource, without a new
// authorization; with metadata at the root, the resource is the origin.
func TestOAuthRefresh(t *testing.T) {
	for _, prm := range []oauthtest.PRMPlace{oauthtest.PRMHeader, oauthtest.PRMRoot} {
		oauthEnv(t)
		srv := oauthtest.Start(t, oauthtest.Options{DCR: true, RefreshTokens: true, PRM: prm})
		mcpscope(t, append(echoCall("echo", "1"), srv.MCPURL)...).mustExit(t, 0)
		srv.Expire()
		mcpscope(t, append(echoCall("echo", "2"), srv.MCPURL)...).mustExit(t, 0)
		if srv.Authorizations() != 1 {
			t.Fatalf("%d authorizations: the refused token was not refreshed", srv.Authorizations())
		}
		if n := refreshesCarryResource(t, srv); n != 1 {
			t.Fatalf("%d refresh grants, want 1", n)
		}
	}
}

// TestOAuthRefreshRefusedAuthorizesAgain: a refreshed token the server
// refuses too is used up: one new authorization runs (no second refresh)
// and the call goes through, whether the refresh answered a 401 or the
// stored token's expiry.
func TestOAuthRefreshRefusedAuthorizesAgain(t *testing.T) {
	for _, tc := range []struct {
		name   string
		expire func(*oauthtest.Server)
	}{
		{"refused", (*oauthtest.Server).Expire},
		{"expired", func(srv *oauthtest.Server) { expireStored(t, srv.MCPURL) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			oauthEnv(t)
			srv := oauthtest.Start(t, oauthtest.Options{DCR: true, RefreshTokens: true, RefuseRefreshed: true})
			mcpscope(t, append(echoCall("echo", "1"), srv.MCPURL)...).mustExit(t, 0)
			tc.expire(srv)
			r := mcpscope(t, append(echoCall("echo", "2"), srv.MCPURL)...)
			r.mustExit(t, 0)
			if !strings.Contains(r.stdout, `"2"`) {
				t.Fatalf("no echo in %s", r.stdout)
			}
			if n := srv.Authorizations(); n != 2 {
				t.Fatalf("%d authorizations, want 2 (the first run's, one after the refused refresh)", n)
			}
			if n := refreshesCarryResource(t, srv); n != 1 {
				t.Fatalf("%d refresh grants, want 1", n)
			}
		})
	}
}

// TestOAuthEveryTokenRefused: a server that refuses every token after the
// first run gets, in the next, one refresh and one authorization, then the
// run ends with exit 3 naming the cause and the way out (auth logout),
// not a loop nor the --header advice of a server without OAuth.
func TestOAuthEveryTokenRefused(t *testing.T) {
	oauthEnv(t)
	srv := oauthtest.Start(t, oauthtest.Options{DCR: true, RefreshTokens: true})
	mcpscope(t, append(echoCall("echo", "1"), srv.MCPURL)...).mustExit(t, 0)
	srv.RefuseEveryToken()
	r := mcpscope(t, append(echoCall("echo", "2"), "--timeout", "20s", srv.MCPURL)...)
	r.mustExit(t, ExitConnection)
	if n := srv.Authorizations(); n != 2 {
		t.Fatalf("%d authorizations, want 2 (one a run)", n)
	}
	if n := strings.Count(r.stderr, "in the browser: "); n != 1 {
		t.Fatalf("the browser was opened %d times in the second run, want 1:\n%s", n, r.stderr)
	}
	if n := refreshesCarryResource(t, srv); n != 1 {
		t.Fatalf("%d refresh grants, want 1", n)
	}
	for _, want := range []string{"refused the token its authorization server just issued", "mcpscope auth logout " + srv.MCPURL} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "--header") {
		t.Errorf("stderr gives the advice of a server without OAuth:\n%s", r.stderr)
	}
}

// TestOAuthExpiredToken: a stored token past its expiry is refreshed
// before it is sent (no 401 first).
func TestOAuthExpiredToken(t *testing.T) {
	oauthEnv(t)
	srv := oauthtest.Start(t, oauthtest.Options{DCR: true, RefreshTokens: true})
	mcpscope(t, append(echoCall("echo", "1"), srv.MCPURL)...).mustExit(t, 0)
	expireStored(t, srv.MCPURL)
	before := len(seen(srv, "POST", "/mcp"))
	mcpscope(t, append(echoCall("echo", "2"), srv.MCPURL)...).mustExit(t, 0)
	if srv.Authorizations() != 1 {
		t.Fatalf("%d authorizations", srv.Authorizations())
	}
	refreshesCarryResource(t, srv)
	last := srv.Tokens()[len(srv.Tokens())-1]
	if last.Grant != "refresh_token" {
		t.Fatalf("the last token came from %s, want a refresh", last.Grant)
	}
	// The second run's first request carried the refreshed token.
	if got := seen(srv, "POST", "/mcp")[before].Header.Get("Authorization"); got != "Bearer "+last.Access {
		t.Fatalf("the second run sent %q first, not the refreshed token", got)
	}
}

// TestOAuthRefusals: a wrong iss (RFC 9207), metadata naming another
// resource (RFC 9728 §3.3), and a server that refuses every token each end
// the run with exit 3 and a clear reason, without looping.
func TestOAuthRefusals(t *testing.T) {
	for _, tc := range []struct {
		name     string
		o        oauthtest.Options
		say      string
		maxAuthz int
	}{
		{"wrong issuer", oauthtest.Options{DCR: true, Iss: oauthtest.IssWrong}, "issuer", 1},
		{"resource mismatch", oauthtest.Options{DCR: true, PRM: oauthtest.PRMPath, PRMResource: "http://127.0.0.1:1/elsewhere"}, "refused (RFC 9728", 0},
		{"always 401", oauthtest.Options{DCR: true, AlwaysUnauthorized: true}, "not authorizing again", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			oauthEnv(t)
			srv := oauthtest.Start(t, tc.o)
			r := mcpscope(t, append(echoCall("echo", "x"), "--timeout", "20s", srv.MCPURL)...)
			r.mustExit(t, ExitConnection)
			if !strings.Contains(r.stderr, tc.say) {
				t.Fatalf("stderr does not say %q:\n%s", tc.say, r.stderr)
			}
			if n := srv.Authorizations(); n > tc.maxAuthz {
				t.Fatalf("%d authorizations, at most %d", n, tc.maxAuthz)
			}
		})
	}
}

// TestOAuthRightIssAccepted: a right iss (RFC 9207) is taken, whether
// the authorization server advertises it (and must then send it) or sends
// it unadvertised, which mcpscope accepts on purpose (§2.4 asks only that
// a present iss match); the callback frame shows it.
func TestOAuthRightIssAccepted(t *testing.T) {
	for _, tc := range []struct {
		name string
		iss  oauthtest.IssMode
	}{
		{"advertised", oauthtest.IssCorrect},
		{"unadvertised", oauthtest.IssUnadvertised},
	} {
		t.Run(tc.name, func(t *testing.T) {
			oauthEnv(t)
			srv := oauthtest.Start(t, oauthtest.Options{DCR: true, Iss: tc.iss})
			rec := filepath.Join(t.TempDir(), "s.jsonl")
			mcpscope(t, append(echoCall("echo", "i"), "--record", rec, srv.MCPURL)...).mustExit(t, 0)
			if want, got := "iss="+url.QueryEscape(srv.Issuer), oauthFrames(t, rec)["oauth callback"]; !strings.Contains(got, want) {
				t.Fatalf("the callback frame does not show %q:\n%s", want, got)
			}
			if n := srv.Authorizations(); n != 1 {
				t.Fatalf("%d authorizations", n)
			}
		})
	}
}

// TestOAuthHeadlessPrintsURL: without a browser, the authorization URL is
// printed, and the wait ends by --timeout.
func TestOAuthHeadlessPrintsURL(t *testing.T) {
	oauthEnv(t)
	t.Setenv("BROWSER", "")
	srv := oauthtest.Start(t, oauthtest.Options{DCR: true})
	r := mcpscope(t, append(echoCall("echo", "h"), "--timeout", "2s", srv.MCPURL)...)
	if r.code != ExitConnection && r.code != ExitTimeout {
		t.Fatalf("exit %d, want 3 or 4\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "in the browser: "+srv.AuthorizationEndpoint+"?") {
		t.Fatalf("the authorization URL is not printed:\n%s", r.stderr)
	}
}

// TestOAuthNoAuth: --no-auth leaves a 401 an error, and no flow runs.
func TestOAuthNoAuth(t *testing.T) {
	oauthEnv(t)
	srv := oauthtest.Start(t, oauthtest.Options{DCR: true})
	r := mcpscope(t, append(echoCall("echo", "n"), "--no-auth", srv.MCPURL)...)
	r.mustExit(t, ExitConnection)
	if srv.Authorizations() != 0 || len(seen(srv, "POST", "/register")) != 0 {
		t.Fatal("an OAuth flow ran under --no-auth")
	}
}

// TestTUIShowsTheAuthorizationChecklist: connecting the TUI to a server
// that asks for OAuth shows the flow as a checklist, step by step, then
// the session connected behind it.
func TestTUIShowsTheAuthorizationChecklist(t *testing.T) {
	oauthEnv(t)
	srv := oauthtest.Start(t, oauthtest.Options{DCR: true})
	r := startTUI(t, "--no-record", srv.MCPURL)
	r.waitFor(t, "authorization "+srv.MCPURL, "✓ challenge", "✓ resource metadata", "✓ server metadata",
		"✓ registration", "✓ browser", "✓ authorization", "✓ token", "every step passed")
	if _, err := r.keys.Write([]byte("q")); err != nil { // closes the checklist
		t.Fatal(err)
	}
	r.waitFor(t, "oauthtest")
	if code := r.quit(t); code != ExitOK {
		t.Fatalf("exit %d; stderr: %s", code, r.errb.String())
	}
}

// TestTUIShowsTheFailedAuthorizationStep: an authorization the client
// must refuse (a wrong iss) is shown failed at its step, the steps before
// it passed, with the reason.
func TestTUIShowsTheFailedAuthorizationStep(t *testing.T) {
	oauthEnv(t)
	srv := oauthtest.Start(t, oauthtest.Options{DCR: true, Iss: oauthtest.IssWrong})
	r := startTUI(t, "--no-record", srv.MCPURL)
	r.waitFor(t, "authorization "+srv.MCPURL, "✓ challenge", "✓ registration", "✓ browser", "✗ authorization",
		"authorization failed: authorization response issuer \"http://wrong-issuer.invalid\"")
	r.mu.Lock()
	screen := r.screen
	r.mu.Unlock()
	if strings.Contains(screen, "✓ token") || strings.Count(screen, "✗") != 1 {
		t.Fatalf("the checklist does not stop at the authorization:\n%s", screen)
	}
	if code := r.quit(t); code != ExitConnection {
		t.Fatalf("exit %d; stderr: %s", code, r.errb.String())
	}
}

// TestDoctorWithOAuth: before any authorization the doctor stops at auth
// and says to connect once; once a command authorized, the doctor walks
// every layer with the stored token.
func TestDoctorWithOAuth(t *testing.T) {
	oauthEnv(t)
	srv := oauthtest.Start(t, oauthtest.Options{DCR: true})
	r := mcpscope(t, "doctor", srv.MCPURL)
	r.mustFailAt(t, "auth", ExitConnection)
	if !strings.Contains(r.stdout, "fix: the server uses OAuth: connect once (mcpscope "+srv.MCPURL+")") {
		t.Fatalf("the fix does not name OAuth:\n%s", r.stdout)
	}
	mcpscope(t, "tools", srv.MCPURL).mustExit(t, 0)
	mcpscope(t, "doctor", srv.MCPURL).mustAllPass(t, "target", "dns", "tcp", "http", "auth", "handshake", "tools/list")
	if srv.Authorizations() != 1 {
		t.Fatalf("%d authorizations: the doctor authorized on its own", srv.Authorizations())
	}
}

// TestOAuthOverWebSocket: a WebSocket upgrade refused with 401 runs the
// same flow (the resource is the endpoint's HTTP URL) and upgrades again
// with the token; the next run upgrades with the stored token at once.
func TestOAuthOverWebSocket(t *testing.T) {
	oauthEnv(t)
	h := demoWSHandler(t)
	srv := oauthtest.Start(t, oauthtest.Options{DCR: true, MCPHandler: h})
	wsURL := "ws" + strings.TrimPrefix(srv.MCPURL, "http")
	r := mcpscope(t, "tools", wsURL)
	r.mustExit(t, 0)
	if !strings.Contains(r.stdout, "book_trip") {
		t.Fatalf("no demo tools listed:\n%s", r.stdout)
	}
	if q := authorizeQuery(t, srv, 0); q.Get("resource") != srv.MCPURL {
		t.Fatalf("resource %q, want the endpoint's HTTP URL %s", q.Get("resource"), srv.MCPURL)
	}
	mcpscope(t, "tools", wsURL).mustExit(t, 0)
	if srv.Authorizations() != 1 {
		t.Fatalf("%d authorizations: the stored token was not used for the upgrade", srv.Authorizations())
	}
}

// TestOAuthStepUpRefusedAgain: a server that keeps refusing a scope it
// asked for and got is not asked again: one authorization, one step-up,
// then exit 3 saying so (not a browser opened for every request).
func TestOAuthStepUpRefusedAgain(t *testing.T) {
	oauthEnv(t)
	refuse := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="mcp:x"`)
		w.WriteHeader(http.StatusForbidden)
	})
	srv := oauthtest.Start(t, oauthtest.Options{DCR: true, PRM: oauthtest.PRMPath, MCPHandler: refuse})
	r := mcpscope(t, "tools", srv.MCPURL)
	r.mustExit(t, ExitConnection)
	if n := srv.Authorizations(); n != 2 {
		t.Fatalf("%d authorizations, want 2 (the first, one step-up)", n)
	}
	if !strings.Contains(r.stderr, `refuses the scope "mcp:x" though the token was granted it`) {
		t.Fatalf("stderr does not say why:\n%s", r.stderr)
	}
}

// TestOAuthURLCredentials: a URL's own user and password are the user's
// credentials: no OAuth flow, and the password is never printed.
func TestOAuthURLCredentials(t *testing.T) {
	oauthEnv(t)
	srv := oauthtest.Start(t, oauthtest.Options{DCR: true})
	u := strings.Replace(srv.MCPURL, "http://", "http://bob:hunter22@", 1)
	r := mcpscope(t, "tools", u)
	r.mustExit(t, ExitConnection)
	if srv.Authorizations() != 0 {
		t.Fatal("an OAuth flow ran for a URL with credentials")
	}
	mustNotHold(t, "stderr", r.stderr, "hunter22")
}

// TestOAuthGatewayStream: `mcpscope stream`'s own gateway connection is
// authorized like a session's: its upgrade refused with 401, the flow
// runs, the stream goes through.
func TestOAuthGatewayStream(t *testing.T) {
	oauthEnv(t)
	h := demoWSHandler(t)
	gateway := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = r.Clone(r.Context())
		r.URL.Path = demows.PathGateway // the fixture serves /mcp
		h.ServeHTTP(w, r)
	})
	srv := oauthtest.Start(t, oauthtest.Options{DCR: true, MCPHandler: gateway})
	dir := t.TempDir()
	got := streamSummary(t, mcpscope(t, "stream", "--stream-out", dir, "--meta", `{"totalSize":4096}`,
		"system_binary_streams_out", "ws"+strings.TrimPrefix(srv.MCPURL, "http")))
	if got["totalBytes"] != 4096.0 || srv.Authorizations() != 1 {
		t.Fatalf("summary %v after %d authorizations", got, srv.Authorizations())
	}
}
