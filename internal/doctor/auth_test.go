package doctor

import (
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
