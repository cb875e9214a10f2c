package doctor

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestInsufficientScopeIsAScopeProblem: a 403 whose Bearer challenge says
// insufficient_scope is worded as the scope it asks for, not as an
// Origin refusal, even when an Origin was sent.
func TestInsufficientScopeIsAScopeProblem(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="files:write"`)
		http.Error(w, "forbidden", http.StatusForbidden)
	}))
	t.Cleanup(srv.Close)
	for _, origin := range []string{"", "https://app.example"} {
		r := walkURL(t, srv.URL+"/mcp", Config{Origin: origin})
		f := r.Failure()
		if f == nil || f.Step != "http" {
			t.Fatalf("failure %+v, want the http step:\n%s", f, render(t, r))
		}
		text := f.Fix + " " + f.Err.Error()
		if strings.Contains(text, "Origin") || !strings.Contains(text, "insufficient_scope") || !strings.Contains(f.Fix, "files:write") {
			t.Fatalf("origin %q: %q, want the scope named and no Origin:\n%s", origin, text, render(t, r))
		}
	}
}

// TestStepUpAdviceFollowsTheFlow: the fix of a 403 insufficient_scope
// promises a step-up only where mcpscope's OAuth flow runs; without one
// (--no-auth, the user's own Authorization) it says none will and how to
// pass a token with the scope.
func TestStepUpAdviceFollowsTheFlow(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="files:write"`)
		http.Error(w, "forbidden", http.StatusForbidden)
	}))
	t.Cleanup(srv.Close)
	flow := func(context.Context, []string) (string, error) { return "authorizes", nil }
	for _, tc := range []struct {
		name       string
		cfg        Config
		want, lose string
	}{
		{"no flow", Config{}, "no OAuth flow runs", "step-up"},
		{"flow", Config{Authorization: flow}, "step-up", "no OAuth flow"},
	} {
		r := walkURL(t, srv.URL+"/mcp", tc.cfg)
		f := r.Failure()
		if f == nil || !strings.Contains(f.Fix, tc.want) || strings.Contains(f.Fix, tc.lose) || !strings.Contains(f.Fix, "--header") {
			t.Fatalf("%s: failure %+v, want %q and not %q:\n%s", tc.name, f, tc.want, tc.lose, render(t, r))
		}
	}
}

// TestOversizedMetadataIsNamed: protected resource metadata over 1 MiB
// is reported for its size, not as a JSON error of its cut-off end.
func TestOversizedMetadataIsNamed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mcp" {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://`+r.Host+`/meta"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"authorization_servers":["` + strings.Repeat("a", 2<<20) + `"]}`))
	}))
	t.Cleanup(srv.Close)
	r := walkURL(t, srv.URL+"/mcp", Config{})
	f := r.Failure()
	if f == nil || f.Step != "auth" || !strings.Contains(f.Err.Error(), "over 1 MiB") {
		t.Fatalf("failure %+v, want the metadata's size named:\n%s", f, render(t, r))
	}
}
