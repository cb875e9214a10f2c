package oauthtest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// sdkClient is the official Go SDK's OAuth client, completing the
// authorization with the fake browser and a loopback callback of its own.
type sdkClient struct {
	redirect string
	answers  chan url.Values
	browser  string
}

func newSDKClient(t *testing.T) *sdkClient {
	t.Helper()
	c := &sdkClient{answers: make(chan url.Values, 4), browser: BrowserProgram(t)}
	cb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r)
			return
		}
		select {
		case c.answers <- r.URL.Query():
		default:
		}
		fmt.Fprintln(w, "You may close this window.")
	}))
	t.Cleanup(cb.Close)
	c.redirect = cb.URL + "/callback"
	return c
}

// fetch opens the authorization URL in the fake browser and returns what
// reached the callback.
func (c *sdkClient) fetch(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	if out, err := exec.CommandContext(ctx, c.browser, args.URL).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("browser: %w: %s", err, out)
	}
	select {
	case q := <-c.answers:
		if e := q.Get("error"); e != "" {
			return nil, fmt.Errorf("authorization refused: %s: %s", e, q.Get("error_description"))
		}
		return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// connect connects to s with the handler configured by cfg (which chooses
// the registration) and returns the session, or the error of connecting.
func (c *sdkClient) connect(t *testing.T, s *Server, cfg auth.AuthorizationCodeHandlerConfig) (*mcp.ClientSession, error) {
	t.Helper()
	if cfg.RedirectURL == "" && cfg.DynamicClientRegistrationConfig == nil {
		cfg.RedirectURL = c.redirect
	}
	cfg.AuthorizationCodeFetcher = c.fetch
	h, err := auth.NewAuthorizationCodeHandler(&cfg)
	if err != nil {
		t.Fatalf("NewAuthorizationCodeHandler: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // the whole session, its authorization included
	t.Cleanup(cancel)
	transport := &mcp.StreamableClientTransport{Endpoint: s.MCPURL, OAuthHandler: h, MaxRetries: -1, DisableStandaloneSSE: true}
	client := mcp.NewClient(&mcp.Implementation{Name: "oauthtest-client", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, transport, nil)
	if err == nil {
		t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, err
}

// preregisteredPublic is a client the server knows, without a secret.
var preregisteredPublic = auth.AuthorizationCodeHandlerConfig{PreregisteredClient: &oauthex.ClientCredentials{ClientID: "mcpscope"}}

// callEcho calls tool with text and fails t unless it answers text.
func callEcho(t *testing.T, cs *mcp.ClientSession, tool, text string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"text": text}})
	if err != nil {
		t.Fatalf("calling %s (waiting at most %s): %v", tool, guard.Hang, err)
	}
	if res.IsError || len(res.Content) != 1 {
		t.Fatalf("%s answered %+v", tool, res)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != text {
		t.Fatalf("%s answered %q, want %q", tool, got, text)
	}
}

// requestsTo returns the requests s saw at path.
func requestsTo(s *Server, path string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

func pathOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Path
}

// assertBearerUsed checks the MCP requests after the authorization carried
// an access token s issued.
func assertBearerUsed(t *testing.T, s *Server) {
	t.Helper()
	toks := s.Tokens()
	if len(toks) == 0 {
		t.Fatal("no token was issued")
	}
	known := map[string]bool{}
	for _, tok := range toks {
		known["Bearer "+tok.Access] = true
	}
	mcps := requestsTo(s, "/mcp")
	authorized := 0
	for _, r := range mcps {
		if known[r.Header.Get("Authorization")] {
			authorized++
		}
	}
	if authorized == 0 || authorized == len(mcps) {
		t.Fatalf("%d of %d MCP requests carried an issued token; want all but the first", authorized, len(mcps))
	}
}

func TestSDKClientDiscoversEveryPlace(t *testing.T) {
	prms := map[string]PRMPlace{"header": PRMHeader, "path": PRMPath, "root": PRMRoot, "none": PRMNone}
	ases := map[string]ASPlace{"oauth": ASOAuth, "oidc": ASOIDC, "oidc-append": ASOIDCAppend, "none": ASNone}
	for pn, prm := range prms {
		for an, as := range ases {
			for _, issuerPath := range []string{"", "/tenant1"} {
				if prm == PRMNone && issuerPath != "" {
					continue
				}
				t.Run(pn+"/"+an+issuerPath, func(t *testing.T) {
					s := Start(t, Options{PRM: prm, AS: as, IssuerPath: issuerPath, Preregistered: &Client{ID: "mcpscope"}})
					cs, err := newSDKClient(t).connect(t, s, preregisteredPublic)
					if err != nil {
						t.Fatalf("connect: %v", err)
					}
					callEcho(t, cs, "echo", "hello")
					if n := s.Authorizations(); n != 1 {
						t.Fatalf("%d authorizations, want 1", n)
					}
					authz := requestsTo(s, pathOf(t, s.AuthorizationEndpoint))
					q := authz[0].Query
					if q.Get("code_challenge_method") != "S256" || q.Get("resource") != s.Resource {
						t.Fatalf("authorization request %v: want S256 and resource %q", q, s.Resource)
					}
					if s.MetadataURL != "" && len(requestsTo(s, pathOf(t, s.MetadataURL))) == 0 {
						t.Fatalf("the metadata at %s was never read", s.MetadataURL)
					}
					assertBearerUsed(t, s)
				})
			}
		}
	}
}

func TestSDKClientRegistersDynamically(t *testing.T) {
	for _, method := range []string{methodNone, methodBasic, methodPost} {
		t.Run(method, func(t *testing.T) {
			s := Start(t, Options{DCR: true, TokenAuthMethods: []string{method}})
			c := newSDKClient(t)
			cs, err := c.connect(t, s, auth.AuthorizationCodeHandlerConfig{
				DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
					RedirectURIs:            []string{c.redirect},
					TokenEndpointAuthMethod: method,
				}},
			})
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			callEcho(t, cs, "echo", "registered")
			if n := len(requestsTo(s, pathOf(t, s.RegistrationEndpoint))); n != 1 {
				t.Fatalf("%d registrations, want 1", n)
			}
			tokenReqs := requestsTo(s, pathOf(t, s.TokenEndpoint))
			last := tokenReqs[len(tokenReqs)-1]
			if got := usedMethod(last); got != method {
				t.Fatalf("the token request authenticated with %s, want %s", got, method)
			}
			assertBearerUsed(t, s)
		})
	}
}

// usedMethod tells how a token request authenticated its client.
func usedMethod(r Request) string {
	switch {
	case strings.HasPrefix(r.Header.Get("Authorization"), "Basic "):
		return methodBasic
	case r.Form.Has("client_secret"):
		return methodPost
	}
	return methodNone
}

func TestSDKClientPreregisteredWithSecret(t *testing.T) {
	s := Start(t, Options{Preregistered: &Client{ID: "app", Secret: "s3cret"}, TokenAuthMethods: []string{methodPost}})
	cs, err := newSDKClient(t).connect(t, s, auth.AuthorizationCodeHandlerConfig{PreregisteredClient: &oauthex.ClientCredentials{
		ClientID: "app", ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: "s3cret"},
	}})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	callEcho(t, cs, "echo", "secret")
	reqs := requestsTo(s, pathOf(t, s.TokenEndpoint))
	if len(reqs) != 1 || reqs[0].Form.Get("client_secret") != "s3cret" {
		t.Fatalf("token requests %+v: want one with client_secret in the body", reqs)
	}
}

func TestSDKClientWithMetadataDocumentID(t *testing.T) {
	const id = "https://client.example/oauth/mcpscope.json"
	s := Start(t, Options{CIMD: true})
	cs, err := newSDKClient(t).connect(t, s, auth.AuthorizationCodeHandlerConfig{
		ClientIDMetadataDocumentConfig: &auth.ClientIDMetadataDocumentConfig{URL: id},
	})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	callEcho(t, cs, "echo", "cimd")
	if toks := s.Tokens(); len(toks) != 1 || toks[0].ClientID != id {
		t.Fatalf("tokens %+v: want one for %s", toks, id)
	}
}

func TestSDKClientStepsUp(t *testing.T) {
	s := Start(t, Options{
		Preregistered:   &Client{ID: "mcpscope"},
		ChallengeScope:  "mcp:read",
		ScopesSupported: []string{"mcp:read", "mcp:admin"},
		StepUpTool:      "admin_echo",
		StepUpScope:     "mcp:admin",
	})
	cs, err := newSDKClient(t).connect(t, s, preregisteredPublic)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	callEcho(t, cs, "echo", "read")
	callEcho(t, cs, "admin_echo", "admin")
	authz := requestsTo(s, pathOf(t, s.AuthorizationEndpoint))
	if len(authz) != 2 {
		t.Fatalf("%d authorizations, want 2 (the second a step-up)", len(authz))
	}
	if got := authz[0].Query.Get("scope"); got != "mcp:read" {
		t.Fatalf("first scope %q, want the challenge's mcp:read", got)
	}
	if got := strings.Fields(authz[1].Query.Get("scope")); len(got) != 2 {
		t.Fatalf("step-up scope %q, want mcp:read and mcp:admin", got)
	}
	toks := s.Tokens()
	if len(toks) != 2 || strings.Join(toks[1].Scopes, " ") != authz[1].Query.Get("scope") {
		t.Fatalf("tokens %+v", toks)
	}
}

func TestSDKClientRefreshesAfterExpire(t *testing.T) {
	// Under the oauth2 package's ten-second margin, so the client
	// refreshes before every use.
	s := Start(t, Options{Preregistered: &Client{ID: "mcpscope"}, RefreshTokens: true, TokenLifetime: 5 * time.Second})
	cs, err := newSDKClient(t).connect(t, s, preregisteredPublic)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	callEcho(t, cs, "echo", "one")
	s.Expire()
	callEcho(t, cs, "echo", "two")
	if n := s.Authorizations(); n != 1 {
		t.Fatalf("%d authorizations, want 1: refreshing needs none", n)
	}
	toks := s.Tokens()
	if len(toks) < 2 || toks[len(toks)-1].Grant != grantRefresh {
		t.Fatalf("tokens %+v: want refreshed ones", toks)
	}
	var prev string
	for i, r := range requestsTo(s, pathOf(t, s.TokenEndpoint)) {
		if r.Form.Get("grant_type") != grantRefresh {
			continue
		}
		if r.Form.Get("refresh_token") != toks[i-1].Refresh || r.Form.Get("refresh_token") == prev {
			t.Fatalf("refresh %d used %q, want the rotated %q", i, r.Form.Get("refresh_token"), toks[i-1].Refresh)
		}
		prev = r.Form.Get("refresh_token")
	}
}

func TestSDKClientFailsOn(t *testing.T) {
	for name, o := range map[string]Options{
		"wrong iss":           {Iss: IssWrong},
		"resource mismatch":   {PRMResource: "http://127.0.0.1:1/elsewhere"},
		"always unauthorized": {AlwaysUnauthorized: true},
	} {
		t.Run(name, func(t *testing.T) {
			o.Preregistered = &Client{ID: "mcpscope"}
			s := Start(t, o)
			_, err := newSDKClient(t).connect(t, s, preregisteredPublic)
			if err == nil {
				t.Fatal("connected")
			}
			switch {
			case o.Iss == IssWrong:
				// The browser reached the callback; the client refused iss.
				var exit *exec.ExitError
				if errors.As(err, &exit) {
					t.Fatalf("the browser failed, not the client: %v", err)
				}
			case o.AlwaysUnauthorized:
				// The SDK authorizes once per refused request it retries.
				if n := s.Authorizations(); n == 0 || n > 2 {
					t.Fatalf("%d authorizations, want 1 or 2: the client must not loop", n)
				}
				return
			default:
				// The SDK drops the lying metadata and falls back to the
				// 2025-03-26 endpoints at the MCP origin, which are not there.
				if n := s.Authorizations(); n != 0 {
					t.Fatalf("%d authorizations for a resource that lied", n)
				}
			}
			if toks := s.Tokens(); len(toks) != 0 {
				t.Fatalf("tokens were issued: %+v", toks)
			}
		})
	}
}

func TestSDKClientAcceptsCorrectIss(t *testing.T) {
	s := Start(t, Options{Iss: IssCorrect, Preregistered: &Client{ID: "mcpscope"}})
	cs, err := newSDKClient(t).connect(t, s, preregisteredPublic)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	callEcho(t, cs, "echo", "iss")
}
