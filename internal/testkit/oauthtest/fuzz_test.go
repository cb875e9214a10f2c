package oauthtest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzBearer feeds the bearer check hostile Authorization headers and
// bodies: it never panics, admits only the issued token, and hands the MCP
// server the body exactly as sent.
func FuzzBearer(f *testing.F) {
	s := Start(f, Options{Preregistered: &Client{ID: "app"}, StepUpTool: "admin_echo", StepUpScope: "mcp:admin"})
	issued := accessToken(f, s, "app")["access_token"].(string)
	token := "Bearer " + issued
	f.Add(token, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"admin_echo"}}`)
	f.Add(token, `[{"method":"tools/call","params":{"name":"echo"}},1,null]`)
	f.Add("Bearer", "[")
	f.Add("basic x", `{"params":[]}`)
	f.Fuzz(func(t *testing.T, authorization, body string) {
		var passed []byte
		h := s.bearer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			passed, _ = io.ReadAll(r.Body)
		}))
		req := httptest.NewRequest(http.MethodPost, s.MCPURL, strings.NewReader(body))
		req.Header.Set("Authorization", authorization)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch rec.Code {
		case http.StatusOK:
			if !strings.Contains(authorization, issued) {
				t.Fatalf("admitted %q", authorization)
			}
			if !bytes.Equal(passed, []byte(body)) {
				t.Fatalf("the MCP server got %q, sent %q", passed, body)
			}
		case http.StatusUnauthorized, http.StatusForbidden:
			if rec.Header().Get("WWW-Authenticate") == "" {
				t.Fatal("refused without a challenge")
			}
		default:
			t.Fatalf("answered %d", rec.Code)
		}
	})
}

// FuzzRegister feeds the registration endpoint hostile metadata: it never
// panics and registers only clients with loopback redirect URIs.
func FuzzRegister(f *testing.F) {
	s := Start(f, Options{DCR: true})
	f.Add(`{"redirect_uris":["http://127.0.0.1:1/cb"],"token_endpoint_auth_method":"none"}`)
	f.Add(`{"redirect_uris":["http://[::1]/cb"],"grant_types":["refresh_token"],"response_types":[]}`)
	f.Add(`{"redirect_uris":[1]}`)
	f.Fuzz(func(t *testing.T, body string) {
		req := httptest.NewRequest(http.MethodPost, s.RegistrationEndpoint, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		s.serveRegister(rec, req)
		switch rec.Code {
		case http.StatusCreated:
			if !strings.Contains(rec.Body.String(), `"redirect_uris":["http://`) {
				t.Fatalf("registered %s", rec.Body)
			}
		case http.StatusBadRequest:
		default:
			t.Fatalf("answered %d", rec.Code)
		}
	})
}
