package oauth

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/bearer"
	"github.com/mcpscope/mcpscope/internal/testkit/oauthtest"
)

// TestPreviewPassesOverMetadataOfAnotherResource: a challenge naming a
// metadata document of another resource, with the endpoint's well-known
// document naming the right one, is authorized by the flow at the server
// the latter names; Preview says the same rather than the refusal of the
// first document.
func TestPreviewPassesOverMetadataOfAnotherResource(t *testing.T) {
	t.Setenv("BROWSER", oauthtest.BrowserProgram(t))
	r := httptest.NewUnstartedServer(nil)
	base := "http://" + r.Listener.Addr().String()
	rURL := base + "/mcp"
	as := oauthtest.Start(t, oauthtest.Options{DCR: true, PRMResource: rURL})
	challenge := fmt.Sprintf(`Bearer resource_metadata=%q`, base+"/other.json")
	mux := http.NewServeMux()
	mux.HandleFunc("GET /other.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"resource":"https://elsewhere.example/mcp","authorization_servers":[%q]}`, as.Issuer)
	})
	mux.HandleFunc("GET /.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"resource":%q,"authorization_servers":[%q]}`, rURL, as.Issuer)
	})
	mux.HandleFunc("POST /mcp", func(w http.ResponseWriter, req *http.Request) {
		tok := strings.TrimPrefix(req.Header.Get("Authorization"), "Bearer ")
		if !slices.ContainsFunc(as.Tokens(), func(t oauthtest.Token) bool { return t.Access == tok }) {
			w.Header().Set("WWW-Authenticate", challenge)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	})
	r.Config.Handler = mux
	r.Start()
	defer r.Close()

	p, err := New(Config{Resource: rURL})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	plan, err := p.Preview(t.Context(), []string{challenge})
	if err != nil || !strings.Contains(plan, as.Issuer) {
		t.Fatalf("Preview: %q, %v; want an authorization at %s", plan, err, as.Issuer)
	}

	f, err := New(Config{Resource: rURL})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hc := &http.Client{Transport: &bearer.RoundTripper{Base: http.DefaultTransport, Auth: f}}
	if code, err := ping(t, hc, f, rURL); err != nil || code != http.StatusOK {
		t.Fatalf("the flow: %d, %v; Preview said %q", code, err, plan)
	}
	if n := as.Authorizations(); n != 1 {
		t.Fatalf("%d authorizations, want 1", n)
	}
}

// With ClientCredentials, Preview names the token endpoint and the grant,
// not the browser.
func TestPreviewClientCredentials(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Options{ClientCredentials: true})
	p, err := New(Config{Resource: as.MCPURL, ClientID: "svc", ClientSecret: "s", ClientCredentials: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	plan, err := p.Preview(t.Context(), []string{fmt.Sprintf(`Bearer resource_metadata=%q`, as.MetadataURL)})
	if err != nil || !strings.Contains(plan, as.TokenEndpoint) || !strings.Contains(plan, "client_credentials") || strings.Contains(plan, "in the browser") {
		t.Fatalf("Preview: %q, %v", plan, err)
	}
}
