package oauthtest

import (
	"crypto/rand"
	"slices"
	"time"
)

// Grant types and token endpoint authentication methods, as RFC 6749 and
// RFC 7591 spell them.
const (
	grantCode    = "authorization_code"
	grantRefresh = "refresh_token"
	grantClient  = "client_credentials"

	methodNone  = "none"
	methodBasic = "client_secret_basic"
	methodPost  = "client_secret_post"
)

// codeLifetime bounds how long an authorization code may wait for its
// exchange (RFC 6749 §4.1.2 recommends at most ten minutes).
const codeLifetime = time.Minute

// registration is a client the authorization server knows.
type registration struct {
	id, secret string
	authMethod string
	// redirectURIs are the registered ones; nil accepts any loopback URI
	// (preregistered and metadata-document clients).
	redirectURIs []string
	grantTypes   []string
}

func preregistered(c *Client, supported []string) *registration {
	method := c.AuthMethod
	if method == "" {
		method = methodNone
		if c.Secret != "" {
			method = methodBasic
			if i := slices.IndexFunc(supported, isSecretMethod); i >= 0 {
				method = supported[i]
			}
		}
	}
	return &registration{id: c.ID, secret: c.Secret, authMethod: method, grantTypes: []string{grantCode, grantRefresh}}
}

func isSecretMethod(m string) bool { return m == methodBasic || m == methodPost }

// grant is an authorization code and what it was issued for.
type grant struct {
	clientID, redirectURI string
	challenge, resource   string
	scopes                []string
	expires               time.Time
	// redeemed is set at the first exchange; tokens are what it gave, to
	// revoke when the code comes again (RFC 6749 §4.1.2).
	redeemed bool
	tokens   []*issued
}

// issued is a token and its state.
type issued struct {
	Token
	revoked bool
	// rotated is set once its refresh token was used.
	rotated bool
}

// snapshot returns a copy of the token, sharing nothing with it.
func (t *issued) snapshot() Token {
	cp := t.Token
	cp.Scopes = slices.Clone(t.Scopes)
	return cp
}

// newSecret returns a fresh random credential with a readable prefix.
func newSecret(prefix string) string { return prefix + rand.Text() }

// issue records a new access token (and refresh token when the client may
// have one). The caller holds s.mu.
func (s *Server) issue(c *registration, grantType, resource string, scopes []string) *issued {
	t := &issued{Token: Token{
		Access:   newSecret("at-"),
		Scopes:   scopes,
		Grant:    grantType,
		ClientID: c.id,
		Resource: resource,
		Expires:  time.Now().Add(s.opts.TokenLifetime),
	}}
	if s.opts.RefreshTokens && slices.Contains(c.grantTypes, grantRefresh) {
		t.Refresh = newSecret("rt-")
		s.refresh[t.Refresh] = t
	}
	s.tokens = append(s.tokens, t)
	s.access[t.Access] = t
	return t
}
