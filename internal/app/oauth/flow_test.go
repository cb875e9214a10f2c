package oauth

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/bearer"
	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/internal/testkit/oauthtest"
)

// TestMaskErrHidesSecretsOfAnswers: the SDK's and oauth2's errors quote
// the bodies of registration and token answers; what the flow says of
// them masks the secrets and still unwraps to the cause.
func TestMaskErrHidesSecretsOfAnswers(t *testing.T) {
	f, err := New(Config{Resource: "http://127.0.0.1:1/mcp", ClientSecret: "configured-secret"})
	if err != nil {
		t.Fatal(err)
	}
	cause := errors.New(`failed to decode successful registration response: ({"client_id":"c1","client_secret":"TOPSECRETVALUE","registration_access_token":"RATVALUE"}) with configured-secret`)
	got := f.maskErr(cause)
	for _, secret := range []string{"TOPSECRETVALUE", "RATVALUE", "configured-secret"} {
		if strings.Contains(got.Error(), secret) {
			t.Fatalf("%q holds %q", got, secret)
		}
	}
	if !errors.Is(got, cause) || !strings.Contains(got.Error(), `"client_id":"c1"`) {
		t.Fatalf("masked %q lost its cause or its text", got)
	}
	f.fail(StepRegistration, got)
	var b strings.Builder
	_ = f.Steps().Render(&b, checklist.RenderOptions{})
	if strings.Contains(b.String(), "TOPSECRETVALUE") {
		t.Fatal("the checklist shows the secret")
	}
}

// TestConcurrentRequestsAuthorizeOnce: requests that went out without a
// token while another was being authorized go again with its token: the
// browser opens once.
func TestConcurrentRequestsAuthorizeOnce(t *testing.T) {
	t.Setenv("BROWSER", oauthtest.BrowserProgram(t))
	srv := oauthtest.Start(t, oauthtest.Options{DCR: true})
	f, err := New(Config{Resource: srv.MCPURL})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hc := &http.Client{Transport: &bearer.RoundTripper{Base: http.DefaultTransport, Auth: f}}
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
			req, _ := http.NewRequest(http.MethodPost, srv.MCPURL, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			rsp, err := hc.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			rsp.Body.Close()
			if rsp.StatusCode == http.StatusUnauthorized {
				t.Error("a request stayed unauthorized")
			}
		}()
	}
	wg.Wait()
	if n := srv.Authorizations(); n != 1 {
		t.Fatalf("%d authorizations for 3 requests at once, want 1", n)
	}
}

// TestChecklistSaysWhyNoMetadataDocument: a flow given a Client ID
// Metadata Document at a server that does not support them registers
// dynamically, and its checklist's registration step says why.
func TestChecklistSaysWhyNoMetadataDocument(t *testing.T) {
	t.Setenv("BROWSER", oauthtest.BrowserProgram(t))
	srv := oauthtest.Start(t, oauthtest.Options{DCR: true})
	var said []string
	f, err := New(Config{Resource: srv.MCPURL, ClientMetadataURL: "https://mcpscope.example/client.json", Say: func(s string) { said = append(said, s) }})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	req, _ := http.NewRequest(http.MethodPost, srv.MCPURL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	rsp, err := (&http.Client{Transport: &bearer.RoundTripper{Base: http.DefaultTransport, Auth: f}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	rsp.Body.Close()
	var reg checklist.Result
	for _, r := range f.Steps().Results {
		if r.Step == StepRegistration {
			reg = r
		}
	}
	if reg.Status != checklist.Passed || !strings.Contains(reg.Detail, "does not support Client ID Metadata Documents") || !strings.Contains(reg.Detail, "dynamic registration at") {
		t.Fatalf("registration step %+v", reg)
	}
	if !slices.ContainsFunc(said, func(s string) bool { return strings.Contains(s, "--client-metadata-url is not used") }) {
		t.Fatalf("the flow said %q", said)
	}
}
