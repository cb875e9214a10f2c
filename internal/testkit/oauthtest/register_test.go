package oauthtest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// registerAnswer posts metadata to the registration endpoint.
func registerAnswer(t *testing.T, s *Server, metadata string) (int, map[string]any) {
	t.Helper()
	res, err := http.Post(s.RegistrationEndpoint, "application/json", strings.NewReader(metadata))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, body
}

// register registers metadata and returns the client information.
func register(t *testing.T, s *Server, metadata string) map[string]any {
	t.Helper()
	status, body := registerAnswer(t, s, metadata)
	if status != http.StatusCreated {
		t.Fatalf("registration answered %d %v", status, body)
	}
	return body
}

func TestRegistrationGivesSecretsOnlyToConfidentialClients(t *testing.T) {
	s := Start(t, Options{DCR: true})
	public := register(t, s, `{"redirect_uris":["`+testRedirect+`"],"token_endpoint_auth_method":"none"}`)
	if public["client_id"] == "" || public["client_secret"] != nil {
		t.Fatalf("public client got %v", public)
	}
	confidential := register(t, s, `{"redirect_uris":["`+testRedirect+`"]}`)
	if confidential["client_secret"] == nil || confidential["token_endpoint_auth_method"] != methodBasic {
		t.Fatalf("a client with the default method got %v", confidential)
	}
	// It authenticates as registered: client_secret_basic.
	v := newVerifier()
	q := authorizeQuery(s, confidential["client_id"].(string), v)
	f := codeForm(q, code(t, s, q), v)
	if status, body := exchange(t, s, f, []string{confidential["client_id"].(string), confidential["client_secret"].(string)}); status != http.StatusOK {
		t.Fatalf("token answered %d %v", status, body)
	}
}

func TestRegistrationRefuses(t *testing.T) {
	cases := map[string]struct{ metadata, want string }{
		"no redirect":      {`{"token_endpoint_auth_method":"none"}`, "invalid_redirect_uri"},
		"remote redirect":  {`{"redirect_uris":["https://app.example/cb"]}`, "invalid_redirect_uri"},
		"unsupported auth": {`{"redirect_uris":["` + testRedirect + `"],"token_endpoint_auth_method":"private_key_jwt"}`, "invalid_client_metadata"},
		"implicit grant":   {`{"redirect_uris":["` + testRedirect + `"],"grant_types":["implicit"]}`, "invalid_client_metadata"},
		"token response":   {`{"redirect_uris":["` + testRedirect + `"],"response_types":["token"]}`, "invalid_client_metadata"},
		"not JSON":         {`redirect_uris=x`, "invalid_client_metadata"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			s := Start(t, Options{DCR: true, TokenAuthMethods: []string{methodNone, methodBasic}})
			status, body := registerAnswer(t, s, c.metadata)
			wantOAuthError(t, status, body, http.StatusBadRequest, c.want)
		})
	}
}
