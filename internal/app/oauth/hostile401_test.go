package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/bearer"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/oauthtest"
)

// TestEndlessRefusalBodyIsNotRead: a resource whose 401 never ends its
// body, at an authorization server where mcpscope cannot register, ends
// the request with the registration's failure as soon as it is known: the
// flow reads nothing of the refusal's body, so it neither downloads it
// until the deadline nor holds the authorization for that long.
func TestEndlessRefusalBodyIsNotRead(t *testing.T) {
	r := httptest.NewUnstartedServer(nil)
	rURL := "http://" + r.Listener.Addr().String() + "/mcp"
	meta := "http://" + r.Listener.Addr().String() + "/meta.json"
	as := oauthtest.Start(t, oauthtest.Options{PRMResource: rURL}) // no registration
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /meta.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"resource":%q,"authorization_servers":[%q]}`, rURL, as.Issuer)
	})
	mux.HandleFunc("POST /mcp", func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata=%q`, meta))
		w.WriteHeader(http.StatusUnauthorized)
		chunk := []byte(strings.Repeat("x", 32<<10))
		for ctx.Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return // the client stopped reading
			}
		}
	})
	r.Config.Handler = mux
	r.Start()
	defer r.Close()
	f, err := New(Config{Resource: rURL, Wait: time.Second, Open: func(context.Context, string) error { return ErrNoBrowser }})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, rURL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	rsp, err := (&http.Client{Transport: &bearer.RoundTripper{Base: http.DefaultTransport, Auth: f}}).Do(req)
	if err == nil {
		rsp.Body.Close()
		t.Fatalf("the request succeeded (%s)", rsp.Status)
	}
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("the request ran to the deadline: %v", err)
	}
	var ae *bearer.Error
	if !errors.As(err, &ae) || !strings.Contains(err.Error(), "regist") {
		t.Fatalf("got %v, want the registration's failure", err)
	}
}
