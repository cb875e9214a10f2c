package oauthtest

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestTokenRefusesWrongVerifier(t *testing.T) {
	s := Start(t, Options{Preregistered: &Client{ID: "app"}})
	v := newVerifier()
	q := authorizeQuery(s, "app", v)
	c := code(t, s, q)
	status, body := exchange(t, s, codeForm(q, c, newVerifier()), nil)
	wantOAuthError(t, status, body, http.StatusBadRequest, "invalid_grant")
	// The code was spent by that presentation.
	status, body = exchange(t, s, codeForm(q, c, v), nil)
	wantOAuthError(t, status, body, http.StatusBadRequest, "invalid_grant")
}

func TestTokenRefusesReusedCodeAndRevokesItsToken(t *testing.T) {
	s := Start(t, Options{Preregistered: &Client{ID: "app"}})
	v := newVerifier()
	q := authorizeQuery(s, "app", v)
	c := code(t, s, q)
	status, body := exchange(t, s, codeForm(q, c, v), nil)
	if status != http.StatusOK || body["token_type"] != "Bearer" || body["expires_in"] != float64(3600) {
		t.Fatalf("answered %d %v", status, body)
	}
	token := body["access_token"].(string)
	if status, _ := post(t, s, token, initialize); status != http.StatusOK {
		t.Fatalf("initialize with the token answered %d", status)
	}
	status, body = exchange(t, s, codeForm(q, c, v), nil)
	wantOAuthError(t, status, body, http.StatusBadRequest, "invalid_grant")
	if status, www := post(t, s, token, initialize); status != http.StatusUnauthorized || !strings.Contains(www, `error="invalid_token"`) {
		t.Fatalf("the token of a replayed code answered %d %q, want 401 invalid_token", status, www)
	}
}

func TestTokenRefusesMismatches(t *testing.T) {
	cases := map[string]struct {
		spoil func(url.Values)
		want  string
	}{
		"no resource":        {func(f url.Values) { f.Del("resource") }, "invalid_target"},
		"other resource":     {func(f url.Values) { f.Set("resource", "http://127.0.0.1:1/mcp") }, "invalid_target"},
		"other redirect":     {func(f url.Values) { f.Set("redirect_uri", "http://127.0.0.1:4568/callback") }, "invalid_grant"},
		"no redirect":        {func(f url.Values) { f.Del("redirect_uri") }, "invalid_grant"},
		"no verifier":        {func(f url.Values) { f.Del("code_verifier") }, "invalid_request"},
		"unknown code":       {func(f url.Values) { f.Set("code", "code-forged") }, "invalid_grant"},
		"password grant":     {func(f url.Values) { f.Set("grant_type", "password") }, "unsupported_grant_type"},
		"repeated parameter": {func(f url.Values) { f.Add("code", f.Get("code")) }, "invalid_request"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			s := Start(t, Options{Preregistered: &Client{ID: "app"}})
			v := newVerifier()
			q := authorizeQuery(s, "app", v)
			f := codeForm(q, code(t, s, q), v)
			c.spoil(f)
			status, body := exchange(t, s, f, nil)
			wantOAuthError(t, status, body, http.StatusBadRequest, c.want)
		})
	}
}

func TestTokenChecksClientAuthenticationAsRegistered(t *testing.T) {
	type attempt struct {
		basic  []string
		form   url.Values
		status int
		want   string
	}
	cases := map[string]struct {
		client   Client
		attempts []attempt
		right    attempt
	}{
		"post": {
			client: Client{ID: "app", Secret: "s3cret", AuthMethod: methodPost},
			attempts: []attempt{
				{basic: []string{"app", "s3cret"}, status: 401, want: "invalid_client"},
				{form: url.Values{"client_secret": {"wrong"}}, status: 401, want: "invalid_client"},
				{status: 401, want: "invalid_client"},
				{basic: []string{"app", "s3cret"}, form: url.Values{"client_secret": {"s3cret"}}, status: 400, want: "invalid_request"},
			},
			right: attempt{form: url.Values{"client_secret": {"s3cret"}}},
		},
		"basic": {
			client: Client{ID: "app", Secret: "s3 cr:et", AuthMethod: methodBasic},
			attempts: []attempt{
				{form: url.Values{"client_secret": {"s3 cr:et"}}, status: 401, want: "invalid_client"},
				{basic: []string{"app", "wrong"}, status: 401, want: "invalid_client"},
				{basic: []string{"other", "s3 cr:et"}, status: 400, want: "invalid_request"},
			},
			right: attempt{basic: []string{"app", "s3 cr:et"}},
		},
		"none": {
			client: Client{ID: "app"},
			attempts: []attempt{
				{basic: []string{"app", ""}, status: 401, want: "invalid_client"},
				{form: url.Values{"client_secret": {""}}, status: 401, want: "invalid_client"},
			},
			right: attempt{},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			s := Start(t, Options{Preregistered: &c.client})
			v := newVerifier()
			q := authorizeQuery(s, "app", v)
			good := codeForm(q, code(t, s, q), v)
			try := func(a attempt) (int, map[string]any) {
				f := cloneValues(good)
				for k, vs := range a.form {
					f[k] = vs
				}
				return exchange(t, s, f, a.basic)
			}
			for i, a := range c.attempts {
				status, body := try(a)
				if status != a.status || body["error"] != a.want {
					t.Fatalf("attempt %d answered %d %v, want %d %s", i, status, body, a.status, a.want)
				}
			}
			// A client that failed to authenticate did not spend the code.
			if status, body := try(c.right); status != http.StatusOK {
				t.Fatalf("the right authentication answered %d %v", status, body)
			}
		})
	}
}

func TestPreregisteredClientTakesTheFirstSecretMethod(t *testing.T) {
	s := Start(t, Options{Preregistered: &Client{ID: "app", Secret: "x"}, TokenAuthMethods: []string{methodNone, methodPost, methodBasic}})
	v := newVerifier()
	q := authorizeQuery(s, "app", v)
	f := codeForm(q, code(t, s, q), v)
	f.Set("client_secret", "x")
	if status, body := exchange(t, s, f, nil); status != http.StatusOK {
		t.Fatalf("client_secret_post answered %d %v", status, body)
	}
}

func TestRefreshRotates(t *testing.T) {
	s := Start(t, Options{Preregistered: &Client{ID: "app"}, RefreshTokens: true})
	first := accessToken(t, s, "app")
	rt, _ := first["refresh_token"].(string)
	if rt == "" {
		t.Fatalf("no refresh token in %v", first)
	}
	refresh := func(rt string, extra url.Values) (int, map[string]any) {
		f := url.Values{"grant_type": {grantRefresh}, "refresh_token": {rt}, "client_id": {"app"}}
		for k, vs := range extra {
			f[k] = vs
		}
		return exchange(t, s, f, nil)
	}
	status, body := refresh(rt, url.Values{"resource": {"http://127.0.0.1:1/mcp"}})
	wantOAuthError(t, status, body, http.StatusBadRequest, "invalid_target")
	status, body = refresh(rt, url.Values{"scope": {"more"}})
	wantOAuthError(t, status, body, http.StatusBadRequest, "invalid_scope")
	status, body = refresh(rt, url.Values{"resource": {s.Resource}})
	if status != http.StatusOK || body["refresh_token"] == rt || body["refresh_token"] == nil {
		t.Fatalf("refresh answered %d %v: want a new refresh token", status, body)
	}
	status, body = refresh(rt, nil)
	wantOAuthError(t, status, body, http.StatusBadRequest, "invalid_grant")
	toks := s.Tokens()
	if len(toks) != 2 || toks[1].Grant != grantRefresh || toks[1].Resource != s.Resource {
		t.Fatalf("tokens %+v", toks)
	}
}

func TestRefreshTokensOnlyForClientsAllowedThem(t *testing.T) {
	s := Start(t, Options{DCR: true, RefreshTokens: true})
	for grants, want := range map[string]bool{`["authorization_code"]`: false, `["authorization_code","refresh_token"]`: true} {
		id := register(t, s, `{"redirect_uris":["`+testRedirect+`"],"token_endpoint_auth_method":"none","grant_types":`+grants+`}`)["client_id"].(string)
		if _, got := accessToken(t, s, id)["refresh_token"]; got != want {
			t.Errorf("grant_types %s: refresh token %v, want %v", grants, got, want)
		}
	}
}
