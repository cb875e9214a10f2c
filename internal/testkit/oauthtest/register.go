package oauthtest

import (
	"encoding/json"
	"mime"
	"net/http"
	"slices"
	"time"
)

// clientMetadata is the part of a registration request (RFC 7591 §2) this
// server reads; the rest is ignored, as §3.1 allows.
type clientMetadata struct {
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method,omitempty"`
	GrantTypes              []string `json:"grant_types,omitempty"`
	ResponseTypes           []string `json:"response_types,omitempty"`
	ClientName              string   `json:"client_name,omitempty"`
}

// clientInformation is a successful registration response (RFC 7591 §3.2.1).
type clientInformation struct {
	ClientID              string `json:"client_id"`
	ClientSecret          string `json:"client_secret,omitempty"`
	ClientIDIssuedAt      int64  `json:"client_id_issued_at"`
	ClientSecretExpiresAt *int64 `json:"client_secret_expires_at,omitempty"`
	clientMetadata
}

// serveRegister is the dynamic client registration endpoint (RFC 7591).
func (s *Server) serveRegister(w http.ResponseWriter, r *http.Request) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		badRequest("invalid_client_metadata", "Content-Type %q, want application/json", r.Header.Get("Content-Type")).write(w)
		return
	}
	var m clientMetadata
	if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
		badRequest("invalid_client_metadata", "malformed metadata: %v", err).write(w)
		return
	}
	if err := s.checkClientMetadata(&m); err != nil {
		err.write(w)
		return
	}
	c := &registration{
		id:           newSecret("client-"),
		authMethod:   m.TokenEndpointAuthMethod,
		redirectURIs: m.RedirectURIs,
		grantTypes:   m.GrantTypes,
	}
	info := clientInformation{ClientID: c.id, ClientIDIssuedAt: time.Now().Unix(), clientMetadata: m}
	if c.authMethod != methodNone {
		c.secret = newSecret("secret-")
		never := int64(0)
		info.ClientSecret, info.ClientSecretExpiresAt = c.secret, &never
	}
	s.mu.Lock()
	s.clients[c.id] = c
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, info)
}

// checkClientMetadata fills in RFC 7591's defaults and refuses what this
// server cannot honour.
func (s *Server) checkClientMetadata(m *clientMetadata) *oauthError {
	if len(m.RedirectURIs) == 0 {
		return badRequest("invalid_redirect_uri", "redirect_uris is missing")
	}
	for _, u := range m.RedirectURIs {
		if _, err := loopbackURI(u); err != nil {
			return badRequest("invalid_redirect_uri", "%v", err)
		}
	}
	if m.TokenEndpointAuthMethod == "" {
		m.TokenEndpointAuthMethod = methodBasic
	}
	if !slices.Contains(s.opts.TokenAuthMethods, m.TokenEndpointAuthMethod) {
		return badRequest("invalid_client_metadata", "token_endpoint_auth_method %q is not supported", m.TokenEndpointAuthMethod)
	}
	if len(m.GrantTypes) == 0 {
		m.GrantTypes = []string{grantCode}
	}
	for _, g := range m.GrantTypes {
		if g != grantCode && g != grantRefresh {
			return badRequest("invalid_client_metadata", "grant_type %q is not supported", g)
		}
	}
	if len(m.ResponseTypes) == 0 {
		m.ResponseTypes = []string{"code"}
	}
	if slices.ContainsFunc(m.ResponseTypes, func(t string) bool { return t != "code" }) {
		return badRequest("invalid_client_metadata", "response_types %q: only code is supported", m.ResponseTypes)
	}
	return nil
}
