package oauthtest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// getJSON fetches url and returns its status and JSON object.
func getJSON(t *testing.T, url string) (int, map[string]any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	if res.StatusCode == http.StatusOK {
		if ct := res.Header.Get("Content-Type"); ct != "application/json" {
			t.Fatalf("%s: Content-Type %q", url, ct)
		}
		if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
			t.Fatalf("%s: %v", url, err)
		}
	}
	return res.StatusCode, body
}

// origin returns the scheme and host of a URL.
func origin(u string) string {
	i := strings.Index(u[len("http://"):], "/")
	if i < 0 {
		return u
	}
	return u[:len("http://")+i]
}

func TestResourceMetadataIsOnlyWhereItsPlaceSays(t *testing.T) {
	for name, c := range map[string]struct {
		prm      PRMPlace
		path     string
		resource func(*Server) string
	}{
		"header": {PRMHeader, headerPRMPath, func(s *Server) string { return s.MCPURL }},
		"path":   {PRMPath, wellKnownPRM + "/mcp", func(s *Server) string { return s.MCPURL }},
		"root":   {PRMRoot, wellKnownPRM, func(s *Server) string { return origin(s.MCPURL) }},
		"none":   {PRMNone, "", nil},
	} {
		t.Run(name, func(t *testing.T) {
			s := Start(t, Options{PRM: c.prm, ScopesSupported: []string{"mcp"}})
			for _, p := range []string{headerPRMPath, wellKnownPRM + "/mcp", wellKnownPRM} {
				status, body := getJSON(t, origin(s.MCPURL)+p)
				if p != c.path {
					if status != http.StatusNotFound {
						t.Errorf("%s answered %d, want 404", p, status)
					}
					continue
				}
				servers, _ := body["authorization_servers"].([]any)
				if status != http.StatusOK || body["resource"] != c.resource(s) || len(servers) != 1 || servers[0] != s.Issuer {
					t.Errorf("%s answered %d %v", p, status, body)
				}
			}
		})
	}
}

func TestServerMetadataIsOnlyWhereItsPlaceSays(t *testing.T) {
	paths := map[ASPlace]string{
		ASOAuth:      "/.well-known/oauth-authorization-server/tenant1",
		ASOIDC:       "/.well-known/openid-configuration/tenant1",
		ASOIDCAppend: "/tenant1/.well-known/openid-configuration",
	}
	for _, place := range []ASPlace{ASOAuth, ASOIDC, ASOIDCAppend, ASNone} {
		s := Start(t, Options{AS: place, IssuerPath: "/tenant1", DCR: true, CIMD: true, Iss: IssCorrect, RefreshTokens: true})
		for other, p := range paths {
			status, body := getJSON(t, origin(s.Issuer)+p)
			if other != place {
				if status != http.StatusNotFound {
					t.Errorf("place %d: %s answered %d, want 404", place, p, status)
				}
				continue
			}
			if status != http.StatusOK || body["issuer"] != s.Issuer || body["authorization_endpoint"] != s.AuthorizationEndpoint ||
				body["registration_endpoint"] != s.RegistrationEndpoint || body["client_id_metadata_document_supported"] != true ||
				body["authorization_response_iss_parameter_supported"] != true {
				t.Errorf("place %d: %s answered %d %v", place, p, status, body)
			}
			if methods, _ := body["code_challenge_methods_supported"].([]any); len(methods) != 1 || methods[0] != "S256" {
				t.Errorf("place %d: code_challenge_methods_supported %v", place, methods)
			}
		}
		wantAuthorize := s.Issuer + "/oauth2/authorize"
		if place == ASNone {
			wantAuthorize = s.Issuer + "/authorize"
		}
		if s.AuthorizationEndpoint != wantAuthorize {
			t.Errorf("place %d: authorization endpoint %s, want %s", place, s.AuthorizationEndpoint, wantAuthorize)
		}
	}
}

func TestFallbackSharesTheOrigin(t *testing.T) {
	s := Start(t, Options{PRM: PRMNone, AS: ASNone, DCR: true})
	o := origin(s.MCPURL)
	if s.Issuer != o || s.AuthorizationEndpoint != o+"/authorize" || s.TokenEndpoint != o+"/token" || s.RegistrationEndpoint != o+"/register" || s.Resource != s.MCPURL {
		t.Fatalf("fallback server %+v", s)
	}
}
