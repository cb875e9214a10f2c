package oauthtest

import (
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The plain net/http side of the strictness tests: one step of the flow
// at a time, so each test can spoil exactly one thing.

// noRedirect is a client that shows redirects instead of following them.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

const testRedirect = "http://127.0.0.1:4567/callback"

func newVerifier() string { return rand.Text() + rand.Text() }

// authorizeQuery is a valid authorization request of client for s.
func authorizeQuery(s *Server, client, verifier string) url.Values {
	return url.Values{
		"response_type":         {"code"},
		"client_id":             {client},
		"redirect_uri":          {testRedirect},
		"code_challenge":        {s256(verifier)},
		"code_challenge_method": {"S256"},
		"resource":              {s.Resource},
		"state":                 {"st4te"},
	}
}

// authorize sends q to the authorization endpoint and returns the status
// and, for a redirect, the query it redirects with.
func authorize(t testing.TB, s *Server, q url.Values) (int, url.Values) {
	t.Helper()
	res, err := noRedirect.Get(s.AuthorizationEndpoint + "?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound {
		return res.StatusCode, nil
	}
	loc, err := res.Location()
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, loc.Query()
}

// code returns a fresh authorization code for the valid request q.
func code(t testing.TB, s *Server, q url.Values) string {
	t.Helper()
	status, answer := authorize(t, s, q)
	if status != http.StatusFound || answer.Get("code") == "" {
		t.Fatalf("authorization answered %d %v", status, answer)
	}
	return answer.Get("code")
}

// codeForm is the token request redeeming code obtained with q.
func codeForm(q url.Values, code, verifier string) url.Values {
	return url.Values{
		"grant_type":    {grantCode},
		"code":          {code},
		"redirect_uri":  {q.Get("redirect_uri")},
		"code_verifier": {verifier},
		"resource":      {q.Get("resource")},
		"client_id":     {q.Get("client_id")},
	}
}

// exchange posts form to the token endpoint, with Basic credentials when
// basic is not nil, and returns the status and JSON answer.
func exchange(t testing.TB, s *Server, form url.Values, basic []string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.TokenEndpoint, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if basic != nil {
		req.SetBasicAuth(url.QueryEscape(basic[0]), url.QueryEscape(basic[1]))
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if cc := res.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("token answer Cache-Control %q, want no-store", cc)
	}
	var body map[string]any
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatalf("token answer: %v", err)
	}
	return res.StatusCode, body
}

// wantOAuthError fails t unless the answer is the error code with status.
func wantOAuthError(t testing.TB, status int, body map[string]any, wantStatus int, wantCode string) {
	t.Helper()
	if status != wantStatus || body["error"] != wantCode || body["error_description"] == "" {
		t.Fatalf("answered %d %v, want %d %s with a description", status, body, wantStatus, wantCode)
	}
}

// accessToken runs a whole valid flow for client and returns the token
// answer.
func accessToken(t testing.TB, s *Server, client string) map[string]any {
	t.Helper()
	v := newVerifier()
	q := authorizeQuery(s, client, v)
	status, body := exchange(t, s, codeForm(q, code(t, s, q), v), nil)
	if status != http.StatusOK {
		t.Fatalf("token answered %d %v", status, body)
	}
	return body
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// post sends a JSON-RPC body to the MCP endpoint with token (none when
// empty) and returns the status and WWW-Authenticate.
func post(t testing.TB, s *Server, token, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.MCPURL, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode, res.Header.Get("WWW-Authenticate")
}
