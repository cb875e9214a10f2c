// Package oauthtest serves an OAuth-protected MCP server for tests: an
// authorization server that approves every valid request at once, in front
// of the official Go SDK's Streamable HTTP server, on 127.0.0.1 ports of the
// test's own (httptest). It follows MCP authorization (revisions 2025-11-25
// and 2026-07-28) and the RFCs under it — 9728 protected resource metadata,
// 8414 authorization server metadata, 7591 dynamic registration, 7636 PKCE,
// 8707 resource indicators, 9207 iss — strictly, so that a client which
// connects through it has done each step right. Options pick the variant a
// test needs; Requests and Tokens show what the client sent and got.
package oauthtest

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// PRMPlace says where the protected resource metadata (RFC 9728) is served.
type PRMPlace int

const (
	// PRMHeader serves it only at a non-standard path, named by
	// resource_metadata= in every 401's WWW-Authenticate.
	PRMHeader PRMPlace = iota
	// PRMPath serves it at /.well-known/oauth-protected-resource/<mcp path>,
	// with no resource_metadata parameter.
	PRMPath
	// PRMRoot serves it at /.well-known/oauth-protected-resource, with no
	// resource_metadata parameter. Its resource is then the origin, as
	// RFC 9728 §3.3 requires of a document found at that URL.
	PRMRoot
	// PRMNone serves no metadata (404): the 2025-03-26 fallback, where the
	// MCP server's origin is the authorization server.
	PRMNone
)

// ASPlace says where the authorization server metadata is served.
type ASPlace int

const (
	// ASOAuth serves RFC 8414 metadata at
	// /.well-known/oauth-authorization-server, with the issuer's path
	// inserted after it.
	ASOAuth ASPlace = iota
	// ASOIDC serves it at /.well-known/openid-configuration, with the
	// issuer's path inserted after it.
	ASOIDC
	// ASOIDCAppend serves it at the issuer's path followed by
	// /.well-known/openid-configuration.
	ASOIDCAppend
	// ASNone serves no metadata: the 2025-03-26 fallback endpoints
	// /authorize, /token and /register directly under the issuer.
	ASNone
)

// IssMode says whether authorization responses carry iss (RFC 9207).
type IssMode int

const (
	// IssOmit neither advertises nor sends iss.
	IssOmit IssMode = iota
	// IssCorrect advertises authorization_response_iss_parameter_supported
	// and sends the issuer.
	IssCorrect
	// IssWrong advertises it and sends an issuer that is not this one.
	IssWrong
	// IssUnadvertised sends the issuer without advertising
	// authorization_response_iss_parameter_supported: a right iss a
	// client may take (RFC 9207 §2.4 asks only that a present one match).
	IssUnadvertised
)

// Client is a client the authorization server knows before any request.
type Client struct {
	ID     string
	Secret string
	// AuthMethod is how it authenticates at the token endpoint: "none",
	// "client_secret_basic" or "client_secret_post". Empty means "none"
	// without a Secret, else the first secret method of
	// Options.TokenAuthMethods (client_secret_basic when there is none).
	AuthMethod string
}

// Options chooses the variant of the protected server. The zero value is a
// server with metadata at the header-named path and RFC 8414 metadata for
// an issuer without path, that knows no client.
type Options struct {
	PRM PRMPlace
	AS  ASPlace
	// IssuerPath gives the issuer a path, e.g. "/tenant1". The
	// authorization server runs on its own httptest server, apart from the
	// MCP server, except with PRMNone, where both share the origin (and
	// IssuerPath must be empty).
	IssuerPath string
	// CIMD advertises client_id_metadata_document_supported and accepts an
	// https URL as client id, without fetching it: it is a public client
	// and is recorded as it was sent.
	CIMD bool
	// DCR serves registration_endpoint (RFC 7591).
	DCR bool
	// Preregistered is a client the authorization server knows beforehand.
	Preregistered *Client
	// ClientCredentials advertises and serves the client_credentials grant
	// (RFC 6749 §4.4) to a confidential client.
	ClientCredentials bool
	// TokenAuthMethods is token_endpoint_auth_methods_supported; empty
	// means client_secret_basic, client_secret_post and none. The token
	// endpoint checks each client authenticates exactly as registered.
	TokenAuthMethods []string
	// ChallengeScope is the scope="…" of the 401's WWW-Authenticate.
	ChallengeScope string
	// ScopesSupported is the protected resource metadata's
	// scopes_supported. When set, the authorization server grants only
	// these, ChallengeScope's, StepUpScope and offline_access.
	ScopesSupported []string
	// StepUpTool, when set, is a second tool: calling it with a token
	// lacking StepUpScope answers 403 insufficient_scope, asking for the
	// token's scopes plus StepUpScope.
	StepUpTool, StepUpScope string
	// TokenLifetime is the access tokens' expires_in; zero means an hour.
	// Past it the resource answers 401 invalid_token.
	TokenLifetime time.Duration
	// RefreshTokens issues refresh tokens (to clients allowed the
	// refresh_token grant); each refresh rotates the refresh token.
	RefreshTokens bool
	// Iss chooses the RFC 9207 iss behaviour.
	Iss IssMode
	// PRMResource, when set, is the metadata's resource instead of the
	// MCP URL: a mismatch a client must refuse.
	PRMResource string
	// AlwaysUnauthorized refuses every token with 401, so a client must
	// give up instead of looping. Server.RefuseEveryToken does the same
	// from a moment of the test on.
	AlwaysUnauthorized bool
	// RefuseRefreshed refuses with 401 invalid_token the access tokens a
	// refresh issued, as a resource does whose authorization server
	// refreshes grants it no longer honours: a client must authorize
	// anew, once, instead of refreshing again.
	RefuseRefreshed bool
	// MCPHandler, when set, is served at /mcp behind the bearer check
	// instead of the Go SDK's Streamable HTTP server: a WebSocket
	// endpoint, say.
	MCPHandler http.Handler
}

// Server is a running protected MCP server and its authorization server.
type Server struct {
	// MCPURL is the protected Streamable HTTP endpoint, e.g.
	// http://127.0.0.1:PORT/mcp.
	MCPURL string
	// Issuer is the authorization server's issuer identifier.
	Issuer string
	// Resource is the resource identifier the authorization server expects
	// as resource= and binds its tokens to: the protected resource
	// metadata's resource (the MCP URL, its origin with PRMRoot, or
	// PRMResource), or the MCP URL with PRMNone.
	Resource string
	// MetadataURL is where the protected resource metadata is served; empty
	// with PRMNone.
	MetadataURL string
	// AuthorizationEndpoint, TokenEndpoint and RegistrationEndpoint are the
	// authorization server's endpoints (RegistrationEndpoint only with DCR).
	AuthorizationEndpoint, TokenEndpoint, RegistrationEndpoint string

	opts Options
	// audience is the resource's own identifier, which its tokens must be
	// bound to: Resource unless PRMResource replaced it.
	audience string

	mu             sync.Mutex
	requests       []Request
	authorizations int
	refuseAll      bool // RefuseEveryToken was called
	clients        map[string]*registration
	codes          map[string]*grant
	tokens         []*issued
	access         map[string]*issued
	refresh        map[string]*issued
}

// Token is an access token the authorization server issued.
type Token struct {
	Access  string
	Refresh string // empty when none was issued
	Scopes  []string
	Grant   string // "authorization_code" or "refresh_token"
	// ClientID and Resource are who got it and the audience it is bound to.
	ClientID, Resource string
	Expires            time.Time
}

// Requests returns every request the authorization server and the resource
// saw, in order.
func (s *Server) Requests() []Request {
	return copyEach(&s.mu, &s.requests, Request.clone)
}

// Authorizations returns how many requests reached the authorization
// endpoint.
func (s *Server) Authorizations() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.authorizations
}

// Tokens returns the access tokens issued, in order.
func (s *Server) Tokens() []Token {
	return copyEach(&s.mu, &s.tokens, (*issued).snapshot)
}

// copyEach returns a copy of each element of *src, read under mu.
func copyEach[T, U any](mu *sync.Mutex, src *[]T, copyOf func(T) U) []U {
	mu.Lock()
	defer mu.Unlock()
	out := make([]U, len(*src))
	for i, v := range *src {
		out[i] = copyOf(v)
	}
	return out
}

// Expire makes every access token issued so far expired now.
func (s *Server) Expire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	for _, t := range s.tokens {
		if t.Expires.After(now) {
			t.Expires = now
		}
	}
}

// RefuseEveryToken makes the resource refuse every token from now on
// with 401 invalid_token, as AlwaysUnauthorized does from the start:
// tokens a client stored before are refused, and so are those it gets
// next.
func (s *Server) RefuseEveryToken() {
	s.mu.Lock()
	s.refuseAll = true
	s.mu.Unlock()
}

// Start serves a protected MCP server chosen by o for the rest of t; it
// closes itself with t.Cleanup.
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	if o.PRM == PRMNone && o.IssuerPath != "" {
		t.Fatalf("oauthtest: IssuerPath %q needs protected resource metadata to name the issuer", o.IssuerPath)
	}
	if o.TokenLifetime <= 0 {
		o.TokenLifetime = time.Hour
	}
	if len(o.TokenAuthMethods) == 0 {
		o.TokenAuthMethods = []string{methodBasic, methodPost, methodNone}
	}
	s := &Server{
		opts:    o,
		clients: map[string]*registration{},
		codes:   map[string]*grant{},
		access:  map[string]*issued{},
		refresh: map[string]*issued{},
	}
	if c := o.Preregistered; c != nil {
		s.clients[c.ID] = preregistered(c, o.TokenAuthMethods)
	}
	resource := httptest.NewUnstartedServer(nil)
	as := resource
	if o.PRM != PRMNone {
		as = httptest.NewUnstartedServer(nil)
	}
	s.wire(t, resource, as)
	return s
}
