package oauth

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpscope/mcpscope/internal/app/bearer"
	"github.com/mcpscope/mcpscope/internal/testkit/oauthtest"
)

// movingResource is an MCP endpoint of the test's own whose protected
// resource metadata names one authorization server, then another (at):
// it admits the tokens the server it names issued for it, unless told to
// refuse them all or to ask each for a new scope.
type movingResource struct {
	*httptest.Server
	url    string
	at     atomic.Pointer[oauthtest.Server]
	refuse atomic.Bool // refuse every token from now on
	demand atomic.Bool // ask every token for a scope it was never asked for
	asked  atomic.Int32
	// scheme, when set, is the challenge's scheme instead of Bearer.
	scheme atomic.Pointer[string]
	// alternate moves the resource to the other server each time it
	// admits a token: servers that name each other in turn.
	alternate atomic.Bool
}

// startMovingResource serves a movingResource for the rest of t, its
// authorization servers (fixtures of oauthtest) binding their tokens to it.
func startMovingResource(t *testing.T) (r *movingResource, first, second *oauthtest.Server) {
	r = &movingResource{Server: httptest.NewUnstartedServer(nil)}
	r.url = "http://" + r.Listener.Addr().String() + "/mcp"
	first = oauthtest.Start(t, oauthtest.Options{DCR: true, PRMResource: r.url})
	second = oauthtest.Start(t, oauthtest.Options{DCR: true, PRMResource: r.url})
	r.at.Store(first)
	meta := "http://" + r.Listener.Addr().String() + "/meta.json"
	mux := http.NewServeMux()
	mux.HandleFunc("GET /meta.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"resource":%q,"authorization_servers":[%q]}`, r.url, r.at.Load().Issuer)
	})
	mux.HandleFunc("POST /mcp", func(w http.ResponseWriter, req *http.Request) {
		tok := strings.TrimPrefix(req.Header.Get("Authorization"), "Bearer ")
		if r.refuse.Load() || !slices.ContainsFunc(r.at.Load().Tokens(), func(t oauthtest.Token) bool { return t.Access == tok }) {
			scheme := "Bearer"
			if p := r.scheme.Load(); p != nil {
				scheme = *p
			}
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`%s resource_metadata=%q`, scheme, meta))
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if r.demand.Load() {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="scope-%d", resource_metadata=%q`, r.asked.Add(1), meta))
			w.WriteHeader(http.StatusForbidden)
			return
		}
		if r.alternate.Load() {
			other := first
			if r.at.Load() == first {
				other = second
			}
			r.at.Store(other)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	})
	r.Config.Handler = mux
	r.Start()
	t.Cleanup(r.Close)
	return r, first, second
}

// ping posts a ping with the flow's round tripper and returns the status.
func ping(t *testing.T, hc *http.Client, f *Flow, u string) (int, error) {
	req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	if v := f.Header(t.Context()); v != "" {
		req.Header.Set("Authorization", v)
	}
	rsp, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	rsp.Body.Close()
	return rsp.StatusCode, nil
}

// TestResourceMovedToAnotherAuthorizationServer: after a token was
// accepted, a 401 whose resource metadata names another authorization
// server discovers and registers there and authorizes once more; a
// resource that then refuses that server's token too is not followed
// round again.
func TestResourceMovedToAnotherAuthorizationServer(t *testing.T) {
	t.Setenv("BROWSER", oauthtest.BrowserProgram(t))
	r, first, second := startMovingResource(t)
	f, hc := moveOnce(t, r, first, second)
	registered := 0
	for _, req := range second.Requests() {
		if req.Method == http.MethodPost && strings.HasSuffix(req.Path, "/register") {
			registered++
		}
	}
	if registered != 1 {
		t.Fatalf("%d registrations at the second server, want 1", registered)
	}
	if !strings.Contains(f.Header(t.Context()), second.Tokens()[0].Access) {
		t.Fatal("the token in use is not the second server's")
	}
	r.refuse.Store(true)
	if _, err := ping(t, hc, f, r.url); !errors.Is(err, bearer.ErrTokenRefused) {
		t.Fatalf("a resource that stayed refusing: %v, want ErrTokenRefused", err)
	}
	if n := second.Authorizations(); n != 1 {
		t.Fatalf("%d authorizations at the second server, want 1: the loop was followed", n)
	}
}

// TestMoveReadsTheChallengeOfAnyScheme: the SDK takes resource_metadata
// from a challenge of any scheme, so the move is detected from the same
// document, and the flow authorizes at the server it names.
func TestMoveReadsTheChallengeOfAnyScheme(t *testing.T) {
	t.Setenv("BROWSER", oauthtest.BrowserProgram(t))
	r, first, second := startMovingResource(t)
	scheme := "DPoP"
	r.scheme.Store(&scheme)
	moveOnce(t, r, first, second)
}

// TestServersNamingEachOtherAreFollowedTwice: a resource that names A,
// then B, then A again each time it admitted a token is followed maxMoves
// times; the refusal after is the loop's, and each move names the server
// the flow authorized at next.
func TestServersNamingEachOtherAreFollowedTwice(t *testing.T) {
	t.Setenv("BROWSER", oauthtest.BrowserProgram(t))
	r, first, second := startMovingResource(t)
	r.alternate.Store(true)
	var mu sync.Mutex
	var said []string
	f, err := New(Config{Resource: r.url, Say: func(s string) { mu.Lock(); said = append(said, s); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hc := &http.Client{Transport: &bearer.RoundTripper{Base: http.DefaultTransport, Auth: f}}
	for i := range 1 + maxMoves {
		if code, err := ping(t, hc, f, r.url); err != nil || code != http.StatusOK {
			t.Fatalf("ping %d: %d, %v", i+1, code, err)
		}
	}
	if _, err := ping(t, hc, f, r.url); !errors.Is(err, bearer.ErrTokenRefused) {
		t.Fatalf("the ping past the bound: %v, want ErrTokenRefused", err)
	}
	if a, b := first.Authorizations(), second.Authorizations(); a != 2 || b != 1 {
		t.Fatalf("authorizations: %d at A, %d at B; want 2 and 1", a, b)
	}
	var moves []string
	mu.Lock()
	defer mu.Unlock()
	for _, s := range said {
		if strings.Contains(s, "names another authorization server now") {
			moves = append(moves, s)
		}
	}
	if len(moves) != maxMoves || !strings.Contains(moves[0], "("+second.Issuer+", not "+first.Issuer+")") || !strings.Contains(moves[1], "("+first.Issuer+", not "+second.Issuer+")") {
		t.Fatalf("the moves said %q", moves)
	}
}

// TestMetadataPlacesAreTheSDKs: the places the move is read from are the
// URLs the SDK's handler reads, keeping a trailing "/" and the query.
func TestMetadataPlacesAreTheSDKs(t *testing.T) {
	cs := []oauthex.Challenge{{Scheme: "dpop", Params: map[string]string{"resource_metadata": "https://r.example/meta"}}}
	got := metadataPlaces(cs, "https://r.example/mcp/?tenant=a")
	want := []metadataPlace{
		{"https://r.example/meta", "https://r.example/mcp/?tenant=a"},
		{"https://r.example/.well-known/oauth-protected-resource/mcp/?tenant=a", "https://r.example/mcp/?tenant=a"},
		{"https://r.example/.well-known/oauth-protected-resource?tenant=a", "https://r.example?tenant=a"},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("places %q, want %q", got, want)
	}
}

// moveOnce pings r with a flow of its own (authorizing at first), moves r
// to second and pings again, failing t unless each server authorized
// once; it returns the flow and its client, which t's end closes.
func moveOnce(t *testing.T, r *movingResource, first, second *oauthtest.Server) (*Flow, *http.Client) {
	t.Helper()
	f, err := New(Config{Resource: r.url})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	hc := &http.Client{Transport: &bearer.RoundTripper{Base: http.DefaultTransport, Auth: f}}
	if code, err := ping(t, hc, f, r.url); err != nil || code != http.StatusOK {
		t.Fatalf("the first ping: %d, %v", code, err)
	}
	r.at.Store(second)
	if code, err := ping(t, hc, f, r.url); err != nil || code != http.StatusOK {
		t.Fatalf("the ping after the move: %d, %v", code, err)
	}
	if a, b := first.Authorizations(), second.Authorizations(); a != 1 || b != 1 {
		t.Fatalf("authorizations: %d at the first server, %d at the second; want 1 and 1", a, b)
	}
	return f, hc
}
