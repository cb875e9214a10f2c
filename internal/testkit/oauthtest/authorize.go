package oauthtest

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// wrongIssuer is the iss IssWrong sends: another authorization server's.
const wrongIssuer = "http://wrong-issuer.invalid"

// serveAuthorize is the authorization endpoint (RFC 6749 §4.1.1 with PKCE
// and resource): it approves every valid request at once.
func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.authorizations++
	s.mu.Unlock()
	q := r.URL.Query()
	c := s.client(q.Get("client_id"))
	if c == nil {
		http.Error(w, fmt.Sprintf("unknown client_id %q", q.Get("client_id")), http.StatusBadRequest)
		return
	}
	redirect, err := checkRedirect(c, q.Get("redirect_uri"))
	if err != nil {
		// Never redirect to a URI the client did not prove is its own
		// (RFC 6749 §4.1.2.1).
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	answer := url.Values{}
	if st := q.Get("state"); st != "" {
		answer.Set("state", st)
	}
	switch s.opts.Iss {
	case IssCorrect, IssUnadvertised:
		answer.Set("iss", s.Issuer)
	case IssWrong:
		answer.Set("iss", wrongIssuer)
	}
	code, desc := s.checkAuthorization(c, q)
	if code != "" {
		answer.Set("error", code)
		answer.Set("error_description", desc)
	} else {
		answer.Set("code", s.newCode(c, q))
	}
	sendTo(w, redirect, answer)
}

// checkAuthorization returns the OAuth error code and description of what
// is wrong with the authorization request q, or "" when nothing is.
func (s *Server) checkAuthorization(c *registration, q url.Values) (code, desc string) {
	for k, vs := range q {
		if len(vs) > 1 {
			return "invalid_request", fmt.Sprintf("%s is given more than once", k)
		}
	}
	switch {
	case q.Get("response_type") != "code":
		return "unsupported_response_type", fmt.Sprintf("response_type %q, want code", q.Get("response_type"))
	case !slices.Contains(c.grantTypes, grantCode):
		return "unauthorized_client", "the client did not register the authorization_code grant"
	case q.Get("code_challenge_method") != "S256":
		return "invalid_request", fmt.Sprintf("code_challenge_method %q, want S256", q.Get("code_challenge_method"))
	case !isS256Challenge(q.Get("code_challenge")):
		return "invalid_request", fmt.Sprintf("code_challenge %q is not a base64url SHA-256", q.Get("code_challenge"))
	case q.Get("resource") == "":
		return "invalid_target", "resource is missing"
	case q.Get("resource") != s.Resource:
		return "invalid_target", fmt.Sprintf("resource %q, want %q", q.Get("resource"), s.Resource)
	}
	if bad := s.ungrantable(strings.Fields(q.Get("scope"))); bad != "" {
		return "invalid_scope", fmt.Sprintf("scope %q is not granted here", bad)
	}
	return "", ""
}

// ungrantable returns the first of scopes the server does not grant.
func (s *Server) ungrantable(scopes []string) string {
	grantable := s.grantableScopes()
	if grantable == nil {
		return ""
	}
	for _, sc := range scopes {
		if !slices.Contains(grantable, sc) {
			return sc
		}
	}
	return ""
}

// newCode records an authorization code for the valid request q.
func (s *Server) newCode(c *registration, q url.Values) string {
	code := newSecret("code-")
	s.mu.Lock()
	defer s.mu.Unlock()
	s.codes[code] = &grant{
		clientID:    c.id,
		redirectURI: q.Get("redirect_uri"),
		challenge:   q.Get("code_challenge"),
		resource:    q.Get("resource"),
		scopes:      strings.Fields(q.Get("scope")),
		expires:     time.Now().Add(codeLifetime),
	}
	return code
}

// client returns the registration of id, nil when unknown. With CIMD an
// https client id URL is a public client known from its first use.
func (s *Server) client(id string) *registration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.clients[id]; c != nil {
		return c
	}
	if !s.opts.CIMD || !isClientIDURL(id) {
		return nil
	}
	c := &registration{id: id, authMethod: methodNone, grantTypes: []string{grantCode, grantRefresh}}
	s.clients[id] = c
	return c
}

// isClientIDURL reports whether id can be a client id metadata document
// URL: https with a path and no fragment.
func isClientIDURL(id string) bool {
	u, err := url.Parse(id)
	return err == nil && u.Scheme == "https" && u.Host != "" && u.Path != "" && u.Path != "/" && u.Fragment == "" && u.User == nil
}

// checkRedirect returns the redirect URI when it is a loopback http URI
// (RFC 8252 §7.3) and, for a client that registered some, one of those
// apart from the port.
func checkRedirect(c *registration, raw string) (*url.URL, error) {
	u, err := loopbackURI(raw)
	if err != nil {
		return nil, err
	}
	if c.redirectURIs == nil {
		return u, nil
	}
	for _, reg := range c.redirectURIs {
		if ru, err := loopbackURI(reg); err == nil && sameButPort(ru, u) {
			return u, nil
		}
	}
	return nil, fmt.Errorf("redirect_uri %q is not registered", raw)
}

func loopbackURI(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, errors.New("redirect_uri is missing")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("redirect_uri: %w", err)
	}
	switch {
	case u.Scheme != "http":
		return nil, fmt.Errorf("redirect_uri %q: want a loopback http URI", raw)
	case u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost" && u.Hostname() != "::1":
		return nil, fmt.Errorf("redirect_uri %q: host is not loopback", raw)
	case u.Fragment != "" || u.User != nil:
		return nil, fmt.Errorf("redirect_uri %q: fragment or user info", raw)
	}
	return u, nil
}

func sameButPort(a, b *url.URL) bool {
	return a.Hostname() == b.Hostname() && a.Path == b.Path && a.RawQuery == b.RawQuery
}

// sendTo redirects to u with answer added to its query.
func sendTo(w http.ResponseWriter, u *url.URL, answer url.Values) {
	to := *u
	q := to.Query()
	for k, vs := range answer {
		q[k] = vs
	}
	to.RawQuery = q.Encode()
	w.Header().Set("Location", to.String())
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusFound)
}
