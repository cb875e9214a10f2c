package oauth

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/mcpscope/mcpscope/internal/app/tokenstore"
)

// Registrations, as the store records them.
const (
	RegistrationCIMD          = "cimd"
	RegistrationPreregistered = "preregistered"
	RegistrationDynamic       = "dynamic"
)

// prepare builds the SDK's handler on first use, with the loopback
// listener the browser's redirect lands on.
func (f *Flow) prepare() (*auth.AuthorizationCodeHandler, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.handler != nil {
		return f.handler, nil
	}
	lb, err := listenLoopback(f.callbackSeen)
	if err != nil {
		return nil, err
	}
	redirect := lb.url()
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              redirect,
		AuthorizationCodeFetcher: f.fetch,
		RequestRefreshToken:      true,
		// RFC 9207 §2.4 asks that a present iss match; a server that
		// sends the right one without advertising it is not refused.
		AcceptUnadvertisedIss: true,
		ScopeFilter:           f.withGranted,
		Client:                f.hc,
		NewTokenSource:        f.adopt,
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			RedirectURIs:            []string{redirect},
			TokenEndpointAuthMethod: "none",
			GrantTypes:              []string{"authorization_code", "refresh_token"},
			ResponseTypes:           []string{"code"},
			ClientName:              "mcpscope",
			SoftwareID:              "mcpscope",
			SoftwareVersion:         f.cfg.Version,
		}},
	}
	if f.cfg.ClientMetadataURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: f.cfg.ClientMetadataURL}
	}
	if f.cfg.ClientID != "" {
		pre := &oauthex.ClientCredentials{ClientID: f.cfg.ClientID}
		if f.cfg.ClientSecret != "" {
			pre.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: f.cfg.ClientSecret}
		}
		cfg.PreregisteredClient = pre
	}
	h, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		lb.close()
		return nil, err
	}
	f.handler, f.redirect = h, lb
	return h, nil
}

// withGranted adds the scopes of the token in use to those the server
// asks for: a step-up after a restart keeps what was granted before (the
// SDK's own union lives only as long as one handler).
func (f *Flow) withGranted(asked []string) []string {
	f.mu.Lock()
	granted := slices.Clone(f.entry.Scopes)
	f.mu.Unlock()
	for _, s := range asked {
		if !slices.Contains(granted, s) {
			granted = append(granted, s)
		}
	}
	return granted
}

// adopt makes tok, issued to the client of oc, the token in use and
// stores it; it is the SDK handler's NewTokenSource.
func (f *Flow) adopt(ctx context.Context, oc *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
	if err := sendable(tok); err != nil {
		return nil, fmt.Errorf("the token endpoint %s issued a token that cannot be used: %w", oc.Endpoint.TokenURL, err)
	}
	src := &savingSource{f: f, base: oc.TokenSource(ctx, tok)}
	f.mu.Lock()
	f.source, f.oc = src, oc
	f.entry = f.entryOf(oc, tok)
	f.mu.Unlock()
	f.save()
	return src, nil
}

// entryOf is what the store keeps of tok; f.mu is held.
func (f *Flow) entryOf(oc *oauth2.Config, tok *oauth2.Token) tokenstore.Entry {
	issuer := f.issuers[oc.Endpoint.TokenURL]
	if issuer == "" {
		// The 2025-03-26 fallback: the token endpoint is <issuer>/token.
		issuer = strings.TrimSuffix(oc.Endpoint.TokenURL, "/token")
	}
	reg := RegistrationDynamic
	switch oc.ClientID {
	case f.cfg.ClientMetadataURL:
		reg = RegistrationCIMD
	case f.cfg.ClientID:
		reg = RegistrationPreregistered
	}
	scopes := oc.Scopes
	if s, ok := tok.Extra("scope").(string); ok && s != "" {
		scopes = strings.Fields(s)
	}
	return tokenstore.Entry{
		Issuer: issuer, Resource: f.resource, Audience: cmp.Or(f.audience, f.entry.Audience, f.cfg.Resource),
		ClientID: oc.ClientID, ClientSecret: oc.ClientSecret, Registration: reg,
		TokenURL: oc.Endpoint.TokenURL, AuthStyle: int(oc.Endpoint.AuthStyle), Scopes: scopes,
		AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken, TokenType: tok.TokenType,
		Expiry: tok.Expiry, Saved: time.Now().UTC(),
	}
}

// save stores the token in use; a failure is said once and the run goes on
// with the token in memory.
func (f *Flow) save() {
	if f.cfg.Store == nil {
		return
	}
	f.mu.Lock()
	e := f.entry
	f.mu.Unlock()
	if err := f.cfg.Store.Save(e); err != nil {
		f.mu.Lock()
		said := f.saveErr
		f.saveErr = true
		f.mu.Unlock()
		if !said {
			f.say(fmt.Sprintf("the OAuth token of %s is kept for this run only: storing it failed: %v", f.resource, err))
		}
	}
}

// savingSource hands out the token of base, refreshed when it expires,
// and stores each new one.
type savingSource struct {
	f    *Flow
	base oauth2.TokenSource
}

// Token returns the token in use, refreshed and stored when it was due.
func (s *savingSource) Token() (*oauth2.Token, error) {
	tok, err := s.base.Token()
	if err != nil {
		return nil, err
	}
	if err := sendable(tok); err != nil {
		return nil, fmt.Errorf("the refreshed token cannot be used: %w", err)
	}
	f := s.f
	f.mu.Lock()
	changed := f.source == s && f.oc != nil && tok.AccessToken != f.entry.AccessToken
	if changed {
		f.entry = f.entryOf(f.oc, tok)
		f.renewed = tok.AccessToken
	}
	f.mu.Unlock()
	if changed {
		f.save()
	}
	return tok, nil
}

// refreshContext carries the flow's captured client for the token
// requests oauth2 makes; it outlives any one request.
func (f *Flow) refreshContext() context.Context {
	return context.WithValue(context.Background(), oauth2.HTTPClient, f.hc)
}

// restore takes up the newest token stored for the resource.
func (f *Flow) restore() error {
	if f.cfg.Store == nil {
		return nil
	}
	entries, err := f.cfg.Store.Find(f.resource)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.AccessToken == "" && e.RefreshToken == "" {
			continue
		}
		oc := &oauth2.Config{
			ClientID: e.ClientID, ClientSecret: e.ClientSecret, Scopes: e.Scopes,
			Endpoint: oauth2.Endpoint{TokenURL: e.TokenURL, AuthStyle: oauth2.AuthStyle(e.AuthStyle)},
		}
		tok := &oauth2.Token{AccessToken: e.AccessToken, RefreshToken: e.RefreshToken, TokenType: e.TokenType, Expiry: e.Expiry}
		if err := sendable(tok); err != nil {
			// Sent, it would fail every request of every run: the server's
			// 401 authorizes anew instead, and the user learns how to
			// forget it.
			return fmt.Errorf("it is corrupt: %w (%s)", err, f.logoutHint())
		}
		src := &savingSource{f: f, base: oc.TokenSource(f.refreshContext(), tok)}
		f.mu.Lock()
		f.source, f.oc, f.entry = src, oc, e
		f.issuers[e.TokenURL] = e.Issuer
		f.audience = e.Audience
		f.mu.Unlock()
		return nil
	}
	return nil
}

// errNoRefresh says the token in use cannot be refreshed.
var errNoRefresh = errors.New("no refresh token")

// refresh trades the refresh token for a new access token now, whatever
// the old one's expiry said: the server refused it.
func (f *Flow) refresh(ctx context.Context) error {
	f.mu.Lock()
	oc, rt := f.oc, f.entry.RefreshToken
	f.mu.Unlock()
	if oc == nil || rt == "" {
		return errNoRefresh
	}
	tok, err := oc.TokenSource(context.WithValue(ctx, oauth2.HTTPClient, f.hc), &oauth2.Token{RefreshToken: rt}).Token()
	if err != nil {
		err = f.maskErr(err)
		f.fail(StepRefresh, fmt.Errorf("%w; authorizing again", err))
		return err
	}
	if tok.RefreshToken == "" {
		tok.RefreshToken = rt
	}
	if _, err := f.adopt(f.refreshContext(), oc, tok); err != nil {
		return err
	}
	f.mu.Lock()
	f.renewed = tok.AccessToken
	f.mu.Unlock()
	return nil
}

// learn reads what the flow needs of a metadata answer: the issuer of a
// token endpoint, and whether protected resource metadata names another
// resource than the server's (RFC 9728 §3.3), which is refused.
func (f *Flow) learn(name string, req *http.Request, got []byte) error {
	var doc struct {
		Issuer        string `json:"issuer"`
		TokenEndpoint string `json:"token_endpoint"`
		Resource      string `json:"resource"`
	}
	if json.Unmarshal(got, &doc) != nil {
		return nil
	}
	switch name {
	case StepServerMeta:
		if doc.TokenEndpoint != "" {
			f.mu.Lock()
			f.issuers[doc.TokenEndpoint] = doc.Issuer
			f.mu.Unlock()
		}
	case StepResourceMeta:
		// RFC 9728 §3.3, as the SDK applies it: metadata at the root names
		// the origin; metadata anywhere else names the endpoint itself.
		want := f.cfg.Resource
		if req.URL.Path == wellKnownPRM {
			want = originOf(f.cfg.Resource)
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		if doc.Resource == want {
			f.refused = nil // a later document the SDK follows
			f.audience = doc.Resource
			return nil
		}
		err := fmt.Errorf("the protected resource metadata at %s names the resource %q, not %q: refused (RFC 9728 §3.3)", req.URL.Redacted(), doc.Resource, want)
		f.refused = err
		return err
	}
	return nil
}

// originOf is the scheme and host of u: the resource of metadata at the
// root of the server.
func originOf(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return u
	}
	if j := strings.IndexByte(u[i+3:], '/'); j >= 0 {
		return u[:i+3+j]
	}
	return u
}
