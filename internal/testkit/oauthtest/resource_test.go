package oauthtest

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestResourceChallenges(t *testing.T) {
	cases := map[string]struct {
		o                Options
		bare, withBadTok string
	}{
		"header with scope": {
			Options{PRM: PRMHeader, ChallengeScope: "mcp:read mcp:write"},
			`Bearer resource_metadata="%m", scope="mcp:read mcp:write"`,
			`Bearer resource_metadata="%m", scope="mcp:read mcp:write", error="invalid_token"`,
		},
		"path":            {Options{PRM: PRMPath}, `Bearer`, `Bearer error="invalid_token"`},
		"root with scope": {Options{PRM: PRMRoot, ChallengeScope: "mcp"}, `Bearer scope="mcp"`, `Bearer scope="mcp", error="invalid_token"`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			s := Start(t, c.o)
			expand := func(v string) string { return strings.ReplaceAll(v, "%m", s.MetadataURL) }
			if status, www := post(t, s, "", initialize); status != http.StatusUnauthorized || www != expand(c.bare) {
				t.Fatalf("without a token: %d %q, want 401 %q", status, www, expand(c.bare))
			}
			if status, www := post(t, s, "at-forged", initialize); status != http.StatusUnauthorized || www != expand(c.withBadTok) {
				t.Fatalf("with a forged token: %d %q, want 401 %q", status, www, expand(c.withBadTok))
			}
		})
	}
}

func TestResourceRefusesExpiredTokens(t *testing.T) {
	s := Start(t, Options{Preregistered: &Client{ID: "app"}})
	token := accessToken(t, s, "app")["access_token"].(string)
	if status, _ := post(t, s, token, initialize); status != http.StatusOK {
		t.Fatalf("a fresh token answered %d", status)
	}
	s.Expire()
	if status, www := post(t, s, token, initialize); status != http.StatusUnauthorized || www != `Bearer resource_metadata="`+s.MetadataURL+`", error="invalid_token"` {
		t.Fatalf("an expired token answered %d %q", status, www)
	}
}

func TestResourceRefusesTokensForAnotherAudience(t *testing.T) {
	// The metadata lies about the resource; a client that believed it got
	// a token bound to the lie, which this resource is not.
	s := Start(t, Options{Preregistered: &Client{ID: "app"}, PRMResource: "http://127.0.0.1:1/elsewhere"})
	token := accessToken(t, s, "app")["access_token"].(string)
	if status, _ := post(t, s, token, initialize); status != http.StatusUnauthorized {
		t.Fatalf("a token for %s answered %d, want 401", s.Resource, status)
	}
}

func TestResourceRefusesEveryTokenWhenAlwaysUnauthorized(t *testing.T) {
	s := Start(t, Options{Preregistered: &Client{ID: "app"}, AlwaysUnauthorized: true})
	token := accessToken(t, s, "app")["access_token"].(string)
	if status, _ := post(t, s, token, initialize); status != http.StatusUnauthorized {
		t.Fatalf("answered %d, want 401", status)
	}
}

// mustAnswer fails unless the resource answers initialize with token by
// want, a 401 saying invalid_token.
func mustAnswer(t *testing.T, s *Server, token string, want int, what string) {
	t.Helper()
	status, www := post(t, s, token, initialize)
	if status != want || want == http.StatusUnauthorized && !strings.Contains(www, `error="invalid_token"`) {
		t.Fatalf("%s answered %d %q, want %d", what, status, www, want)
	}
}

func TestResourceRefusesEveryTokenFromRefuseEveryToken(t *testing.T) {
	s := Start(t, Options{Preregistered: &Client{ID: "app"}})
	before := accessToken(t, s, "app")["access_token"].(string)
	mustAnswer(t, s, before, http.StatusOK, "a fresh token")
	s.RefuseEveryToken()
	mustAnswer(t, s, before, http.StatusUnauthorized, "a token issued before RefuseEveryToken")
	mustAnswer(t, s, accessToken(t, s, "app")["access_token"].(string), http.StatusUnauthorized, "a token issued after RefuseEveryToken")
}

func TestResourceRefusesRefreshedTokensWithRefuseRefreshed(t *testing.T) {
	s := Start(t, Options{Preregistered: &Client{ID: "app"}, RefreshTokens: true, RefuseRefreshed: true})
	first := accessToken(t, s, "app")
	mustAnswer(t, s, first["access_token"].(string), http.StatusOK, "a token from the code")
	form := url.Values{"grant_type": {grantRefresh}, "refresh_token": {first["refresh_token"].(string)}, "client_id": {"app"}}
	status, body := exchange(t, s, form, nil)
	if status != http.StatusOK {
		t.Fatalf("refresh answered %d %v", status, body)
	}
	mustAnswer(t, s, body["access_token"].(string), http.StatusUnauthorized, "a refreshed token")
	mustAnswer(t, s, accessToken(t, s, "app")["access_token"].(string), http.StatusOK, "a token from a new code")
}

func TestResourceAsksForStepUpScope(t *testing.T) {
	s := Start(t, Options{Preregistered: &Client{ID: "app"}, StepUpTool: "admin_echo", StepUpScope: "mcp:admin"})
	v := newVerifier()
	q := authorizeQuery(s, "app", v)
	q.Set("scope", "mcp:read")
	status, body := exchange(t, s, codeForm(q, code(t, s, q), v), nil)
	if status != http.StatusOK {
		t.Fatalf("token answered %d %v", status, body)
	}
	token := body["access_token"].(string)
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"admin_echo","arguments":{"text":"x"}}}`
	want := `Bearer resource_metadata="` + s.MetadataURL + `", error="insufficient_scope", scope="mcp:read mcp:admin"`
	for _, body := range []string{call, "[" + call + "]"} {
		if status, www := post(t, s, token, body); status != http.StatusForbidden || www != want {
			t.Fatalf("calling the step-up tool answered %d %q, want 403 %q", status, www, want)
		}
	}
	// Anything else reaches the MCP server with its body whole.
	if status, _ := post(t, s, token, initialize); status != http.StatusOK {
		t.Fatalf("initialize answered %d", status)
	}
}
