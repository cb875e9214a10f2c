package oauthtest

import (
	"net/http"
	"net/url"
	"testing"
)

func TestAuthorizeApprovesAtOnce(t *testing.T) {
	s := Start(t, Options{Preregistered: &Client{ID: "app"}, Iss: IssCorrect})
	q := authorizeQuery(s, "app", newVerifier())
	q.Set("scope", "a b")
	status, answer := authorize(t, s, q)
	if status != http.StatusFound || answer.Get("code") == "" || answer.Get("state") != "st4te" || answer.Get("iss") != s.Issuer {
		t.Fatalf("answered %d %v: want a code, the state and iss", status, answer)
	}
	if n := s.Authorizations(); n != 1 {
		t.Fatalf("%d authorizations counted", n)
	}
}

func TestAuthorizeSendsIssAsItsModeSays(t *testing.T) {
	for _, c := range []struct {
		mode       IssMode
		advertised bool
		iss        func(*Server) string
	}{
		{IssOmit, false, func(*Server) string { return "" }},
		{IssCorrect, true, func(s *Server) string { return s.Issuer }},
		{IssWrong, true, func(*Server) string { return wrongIssuer }},
		{IssUnadvertised, false, func(s *Server) string { return s.Issuer }},
	} {
		s := Start(t, Options{Preregistered: &Client{ID: "app"}, Iss: c.mode})
		status, answer := authorize(t, s, authorizeQuery(s, "app", newVerifier()))
		if status != http.StatusFound || answer.Get("iss") != c.iss(s) {
			t.Errorf("mode %d answered %d with iss %q, want %q", c.mode, status, answer.Get("iss"), c.iss(s))
		}
		_, meta := getJSON(t, origin(s.Issuer)+"/.well-known/oauth-authorization-server")
		if got := meta["authorization_response_iss_parameter_supported"] == true; got != c.advertised {
			t.Errorf("mode %d advertises iss: %v, want %v", c.mode, got, c.advertised)
		}
	}
}

func TestAuthorizeRefusesThroughTheRedirect(t *testing.T) {
	cases := map[string]struct {
		spoil func(url.Values)
		want  string
	}{
		"no resource":       {func(q url.Values) { q.Del("resource") }, "invalid_target"},
		"other resource":    {func(q url.Values) { q.Set("resource", "http://127.0.0.1:1/mcp") }, "invalid_target"},
		"plain PKCE":        {func(q url.Values) { q.Set("code_challenge_method", "plain") }, "invalid_request"},
		"no PKCE method":    {func(q url.Values) { q.Del("code_challenge_method") }, "invalid_request"},
		"no challenge":      {func(q url.Values) { q.Del("code_challenge") }, "invalid_request"},
		"short challenge":   {func(q url.Values) { q.Set("code_challenge", "abc") }, "invalid_request"},
		"implicit":          {func(q url.Values) { q.Set("response_type", "token") }, "unsupported_response_type"},
		"unknown scope":     {func(q url.Values) { q.Set("scope", "mcp:read root") }, "invalid_scope"},
		"repeated resource": {func(q url.Values) { q.Add("resource", q.Get("resource")) }, "invalid_request"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			s := Start(t, Options{Preregistered: &Client{ID: "app"}, ScopesSupported: []string{"mcp:read"}, Iss: IssCorrect})
			q := authorizeQuery(s, "app", newVerifier())
			c.spoil(q)
			status, answer := authorize(t, s, q)
			if status != http.StatusFound || answer.Get("error") != c.want || answer.Get("error_description") == "" {
				t.Fatalf("answered %d %v, want a redirect with error %s", status, answer, c.want)
			}
			if answer.Get("code") != "" || answer.Get("state") != "st4te" || answer.Get("iss") != s.Issuer {
				t.Fatalf("error redirect %v: want the state and iss, no code", answer)
			}
		})
	}
}

func TestAuthorizeNeverRedirectsUnproven(t *testing.T) {
	cases := map[string]func(url.Values){
		"unknown client":    func(q url.Values) { q.Set("client_id", "stranger") },
		"no client":         func(q url.Values) { q.Del("client_id") },
		"no redirect":       func(q url.Values) { q.Del("redirect_uri") },
		"remote redirect":   func(q url.Values) { q.Set("redirect_uri", "http://example.com/callback") },
		"https redirect":    func(q url.Values) { q.Set("redirect_uri", "https://127.0.0.1/callback") },
		"fragment redirect": func(q url.Values) { q.Set("redirect_uri", testRedirect+"#x") },
	}
	for name, spoil := range cases {
		t.Run(name, func(t *testing.T) {
			s := Start(t, Options{Preregistered: &Client{ID: "app"}})
			q := authorizeQuery(s, "app", newVerifier())
			spoil(q)
			if status, answer := authorize(t, s, q); status != http.StatusBadRequest {
				t.Fatalf("answered %d %v, want 400", status, answer)
			}
		})
	}
}

func TestAuthorizeMatchesRegisteredRedirectButItsPort(t *testing.T) {
	s := Start(t, Options{DCR: true})
	id := register(t, s, `{"redirect_uris":["http://127.0.0.1:1234/callback"],"token_endpoint_auth_method":"none"}`)["client_id"].(string)
	for redirect, want := range map[string]int{
		"http://127.0.0.1:1234/callback": http.StatusFound,
		"http://127.0.0.1:5555/callback": http.StatusFound,
		"http://127.0.0.1:1234/other":    http.StatusBadRequest,
		"http://localhost:1234/callback": http.StatusBadRequest,
	} {
		q := authorizeQuery(s, id, newVerifier())
		q.Set("redirect_uri", redirect)
		if status, _ := authorize(t, s, q); status != want {
			t.Errorf("redirect %s answered %d, want %d", redirect, status, want)
		}
	}
}

func TestAuthorizeTakesMetadataDocumentIDsOnlyWithCIMD(t *testing.T) {
	const id = "https://client.example/mcpscope.json"
	for cimd, want := range map[bool]int{true: http.StatusFound, false: http.StatusBadRequest} {
		s := Start(t, Options{CIMD: cimd})
		if status, _ := authorize(t, s, authorizeQuery(s, id, newVerifier())); status != want {
			t.Errorf("CIMD %v: answered %d, want %d", cimd, status, want)
		}
	}
	s := Start(t, Options{CIMD: true})
	for _, bad := range []string{"https://client.example", "https://client.example/", "http://client.example/c.json"} {
		if status, _ := authorize(t, s, authorizeQuery(s, bad, newVerifier())); status != http.StatusBadRequest {
			t.Errorf("client id %s answered %d, want 400", bad, status)
		}
	}
}
