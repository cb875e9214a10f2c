package oauthtest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Paths of the resource server.
const (
	mcpPath = "/mcp"
	// headerPRMPath is where PRMHeader serves the metadata: a path no
	// client would guess, so it must follow resource_metadata=.
	headerPRMPath = "/meta/protected-resource.json"
	wellKnownPRM  = "/.well-known/oauth-protected-resource"
)

// wire computes the URLs, routes both servers (the same one with PRMNone),
// starts them and closes them at the end of the test.
func (s *Server) wire(t testing.TB, resource, as *httptest.Server) {
	o := s.opts
	origin := "http://" + resource.Listener.Addr().String()
	s.MCPURL = origin + mcpPath
	s.Issuer = "http://" + as.Listener.Addr().String() + o.IssuerPath

	resourceMux := http.NewServeMux()
	asMux := resourceMux
	if as != resource {
		asMux = http.NewServeMux()
	}
	resourceMux.Handle(mcpPath, s.bearer(newMCPHandler(o)))
	s.Resource = s.MCPURL
	switch o.PRM {
	case PRMHeader:
		s.MetadataURL = origin + headerPRMPath
	case PRMPath:
		s.MetadataURL = origin + wellKnownPRM + mcpPath
	case PRMRoot:
		s.MetadataURL = origin + wellKnownPRM
		s.Resource = origin
	}
	s.audience = s.Resource
	if o.PRMResource != "" && o.PRM != PRMNone {
		s.Resource = o.PRMResource
	}
	if s.MetadataURL != "" {
		resourceMux.HandleFunc("GET "+strings.TrimPrefix(s.MetadataURL, origin), s.serveResourceMetadata)
	}
	s.routeAS(asMux, strings.TrimPrefix(s.Issuer, "http://"+as.Listener.Addr().String()))

	resource.Config.Handler = s.record(resourceMux)
	resource.Start()
	stop := []*httptest.Server{resource}
	if as != resource {
		as.Config.Handler = s.record(asMux)
		as.Start()
		stop = append(stop, as)
	}
	t.Cleanup(func() {
		for _, srv := range stop {
			// Streams (the standalone SSE GET) outlive their clients'
			// interest; cut them so Close does not wait on them.
			srv.CloseClientConnections()
			srv.Close()
		}
	})
}

// routeAS routes the authorization server's metadata and endpoints under
// the issuer's path. With metadata the endpoints live under /oauth2, so a
// client that guesses the fallback paths instead of reading the metadata
// fails.
func (s *Server) routeAS(mux *http.ServeMux, issuerPath string) {
	o := s.opts
	under := "/oauth2"
	if o.AS == ASNone {
		under = ""
	}
	s.AuthorizationEndpoint = s.Issuer + under + "/authorize"
	s.TokenEndpoint = s.Issuer + under + "/token"
	mux.HandleFunc("GET "+issuerPath+under+"/authorize", s.serveAuthorize)
	mux.HandleFunc("POST "+issuerPath+under+"/token", s.serveToken)
	if o.DCR {
		s.RegistrationEndpoint = s.Issuer + under + "/register"
		mux.HandleFunc("POST "+issuerPath+under+"/register", s.serveRegister)
	}
	switch o.AS {
	case ASOAuth:
		mux.HandleFunc("GET /.well-known/oauth-authorization-server"+issuerPath, s.serveASMetadata)
	case ASOIDC:
		mux.HandleFunc("GET /.well-known/openid-configuration"+issuerPath, s.serveASMetadata)
	case ASOIDCAppend:
		mux.HandleFunc("GET "+issuerPath+"/.well-known/openid-configuration", s.serveASMetadata)
	}
	if o.AS == ASOIDC || o.AS == ASOIDCAppend {
		mux.HandleFunc("GET "+issuerPath+"/jwks", serveEmptyKeySet)
	}
}
