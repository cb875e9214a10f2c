package oauth

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/bearer"
	"github.com/mcpscope/mcpscope/internal/testkit/oauthtest"
)

// TestStepUpIsBounded: a server asking for a new scope on every request
// gets 2 step-up authorizations in a run, not one (or more) a
// request; the requests past the bound fail saying so.
func TestStepUpIsBounded(t *testing.T) {
	t.Setenv("BROWSER", oauthtest.BrowserProgram(t))
	r, as, _ := startMovingResource(t)
	r.demand.Store(true)
	f, err := New(Config{Resource: r.url})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hc := &http.Client{Transport: &bearer.RoundTripper{Base: http.DefaultTransport, Auth: f}}
	var last error
	for range 8 {
		if _, err := ping(t, hc, f, r.url); err != nil {
			last = err
		}
	}
	if n := as.Authorizations(); n != 1+maxStepUps {
		t.Fatalf("%d authorizations for 8 requests, want 1 and %d step-ups", n, maxStepUps)
	}
	if last == nil || !strings.Contains(last.Error(), "does not open the browser again") {
		t.Fatalf("the last request: %v, want the bound named", last)
	}
}
