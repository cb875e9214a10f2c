package oauthtest

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"math"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// oauthError is an error response of the token or registration endpoint
// (RFC 6749 §5.2, RFC 7591 §3.2.2).
type oauthError struct {
	status int
	Code   string `json:"error"`
	Desc   string `json:"error_description"`
}

func badRequest(code, format string, args ...any) *oauthError {
	return &oauthError{http.StatusBadRequest, code, fmt.Sprintf(format, args...)}
}

func (e *oauthError) write(w http.ResponseWriter) {
	if e.status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="oauthtest"`)
	}
	writeJSON(w, e.status, e)
}

// tokenResponse is a successful token response (RFC 6749 §5.1).
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token,omitempty"`
	Scope        string `json:"scope,omitempty"`
}

// serveToken is the token endpoint: the authorization_code grant with PKCE
// and the refresh_token grant, for clients authenticated as registered.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	form, err := tokenForm(r)
	if err != nil {
		err.write(w)
		return
	}
	c, err := s.authenticate(r, form)
	if err != nil {
		err.write(w)
		return
	}
	var t *issued
	switch gt := form.Get("grant_type"); gt {
	case grantCode:
		t, err = s.redeemCode(c, form)
	case grantRefresh:
		t, err = s.redeemRefresh(c, form)
	case grantClient:
		t, err = s.grantClientCredentials(c, form)
	default:
		err = badRequest("unsupported_grant_type", "grant_type %q", gt)
	}
	if err != nil {
		err.write(w)
		return
	}
	writeJSON(w, http.StatusOK, tokenResponse{
		AccessToken:  t.Access,
		TokenType:    "Bearer",
		ExpiresIn:    int64(math.Ceil(s.opts.TokenLifetime.Seconds())),
		RefreshToken: t.Refresh,
		Scope:        strings.Join(t.Scopes, " "),
	})
}

// tokenForm returns the url-encoded body of a token request; parameters
// in the query are not read.
func tokenForm(r *http.Request) (url.Values, *oauthError) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" {
		return nil, badRequest("invalid_request", "Content-Type %q, want application/x-www-form-urlencoded", r.Header.Get("Content-Type"))
	}
	if err := r.ParseForm(); err != nil {
		return nil, badRequest("invalid_request", "malformed body: %v", err)
	}
	for k, vs := range r.PostForm {
		if len(vs) > 1 {
			return nil, badRequest("invalid_request", "%s is given more than once", k)
		}
	}
	return r.PostForm, nil
}

// authenticate returns the client of a token request when it
// authenticated exactly as it registered (RFC 6749 §2.3.1).
func (s *Server) authenticate(r *http.Request, form url.Values) (*registration, *oauthError) {
	refuse := func(format string, args ...any) *oauthError {
		return &oauthError{http.StatusUnauthorized, "invalid_client", fmt.Sprintf(format, args...)}
	}
	id, secret, method := form.Get("client_id"), form.Get("client_secret"), methodNone
	if form.Has("client_secret") {
		method = methodPost
	}
	if r.Header.Get("Authorization") != "" {
		user, pass, ok := r.BasicAuth()
		if !ok {
			return nil, refuse("Authorization is not Basic")
		}
		if method == methodPost {
			return nil, badRequest("invalid_request", "client_secret_basic and client_secret_post at once")
		}
		var uerr, perr error
		user, uerr = url.QueryUnescape(user)
		pass, perr = url.QueryUnescape(pass)
		if uerr != nil || perr != nil {
			return nil, refuse("Basic credentials are not form-encoded")
		}
		if id != "" && id != user {
			return nil, badRequest("invalid_request", "client_id %q differs from the Basic user %q", id, user)
		}
		id, secret, method = user, pass, methodBasic
	}
	if id == "" {
		return nil, refuse("no client_id")
	}
	c := s.client(id)
	switch {
	case c == nil:
		return nil, refuse("unknown client %q", id)
	case method != c.authMethod:
		return nil, refuse("client %q authenticated with %s, registered %s", id, method, c.authMethod)
	case method != methodNone && subtle.ConstantTimeCompare([]byte(secret), []byte(c.secret)) != 1:
		return nil, refuse("wrong client_secret")
	}
	return c, nil
}

// grantClientCredentials is the client_credentials grant (RFC 6749 §4.4)
// of a confidential client, when Options.ClientCredentials serves it.
func (s *Server) grantClientCredentials(c *registration, form url.Values) (*issued, *oauthError) {
	switch {
	case !s.opts.ClientCredentials:
		return nil, badRequest("unsupported_grant_type", "grant_type %q", grantClient)
	case c.authMethod == methodNone:
		return nil, badRequest("unauthorized_client", "a public client may not use %s", grantClient)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.issue(c, grantClient, form.Get("resource"), strings.Fields(form.Get("scope"))), nil
}

// redeemCode is the authorization_code grant (RFC 6749 §4.1.3, RFC 7636
// §4.6, RFC 8707 §2.2). A code is spent by its first presentation; a second
// one revokes what the first obtained.
func (s *Server) redeemCode(c *registration, form url.Values) (*issued, *oauthError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.codes[form.Get("code")]
	if g == nil || g.clientID != c.id {
		return nil, badRequest("invalid_grant", "unknown code")
	}
	if g.redeemed {
		for _, t := range g.tokens {
			t.revoked = true
		}
		return nil, badRequest("invalid_grant", "the code was already used")
	}
	g.redeemed = true
	verifier := form.Get("code_verifier")
	switch {
	case time.Now().After(g.expires):
		return nil, badRequest("invalid_grant", "the code expired")
	case form.Get("redirect_uri") != g.redirectURI:
		return nil, badRequest("invalid_grant", "redirect_uri %q, the authorization request had %q", form.Get("redirect_uri"), g.redirectURI)
	case !isVerifier(verifier):
		return nil, badRequest("invalid_request", "code_verifier missing or malformed")
	case s256(verifier) != g.challenge:
		return nil, badRequest("invalid_grant", "code_verifier does not match the code_challenge")
	case form.Get("resource") == "":
		return nil, badRequest("invalid_target", "resource is missing")
	case form.Get("resource") != g.resource:
		return nil, badRequest("invalid_target", "resource %q, the authorization request had %q", form.Get("resource"), g.resource)
	}
	t := s.issue(c, grantCode, g.resource, g.scopes)
	g.tokens = append(g.tokens, t)
	return t, nil
}

// redeemRefresh is the refresh_token grant (RFC 6749 §6): it rotates the
// refresh token, and may narrow the scope.
func (s *Server) redeemRefresh(c *registration, form url.Values) (*issued, *oauthError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.refresh[form.Get("refresh_token")]
	if old == nil || old.ClientID != c.id || old.revoked {
		return nil, badRequest("invalid_grant", "unknown refresh_token")
	}
	if old.rotated {
		return nil, badRequest("invalid_grant", "the refresh_token was already used")
	}
	if res := form.Get("resource"); res != "" && res != old.Resource {
		return nil, badRequest("invalid_target", "resource %q, the grant is for %q", res, old.Resource)
	}
	scopes := old.Scopes
	if form.Has("scope") {
		scopes = strings.Fields(form.Get("scope"))
		for _, sc := range scopes {
			if !slices.Contains(old.Scopes, sc) {
				return nil, badRequest("invalid_scope", "scope %q was not granted", sc)
			}
		}
	}
	old.rotated = true
	return s.issue(c, grantRefresh, old.Resource, scopes), nil
}

// s256 is the S256 code challenge of a verifier (RFC 7636 §4.2).
func s256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// isS256Challenge reports whether c has the shape of an S256 challenge.
func isS256Challenge(c string) bool {
	b, err := base64.RawURLEncoding.DecodeString(c)
	return err == nil && len(b) == sha256.Size
}

// isVerifier reports whether v is a code verifier: 43 to 128 unreserved
// characters (RFC 7636 §4.1).
func isVerifier(v string) bool {
	if len(v) < 43 || len(v) > 128 {
		return false
	}
	for _, r := range v {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("-._~", r)) {
			return false
		}
	}
	return true
}
