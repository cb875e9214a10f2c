package oauth

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth/extauth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/mcpscope/mcpscope/internal/app/tokenstore"
)

// authorizer runs one authorization against the server's refusal.
type authorizer interface {
	Authorize(ctx context.Context, req *http.Request, rsp *http.Response) error
}

// authorizerOf is the authorization the configuration asks for: the
// client_credentials grant of a confidential client (the
// oauth-client-credentials extension), or the authorization code with
// PKCE in the user's browser.
func (f *Flow) authorizerOf() (authorizer, error) {
	if !f.cfg.ClientCredentials {
		return f.prepare()
	}
	h, err := extauth.NewClientCredentialsHandler(&extauth.ClientCredentialsHandlerConfig{
		Credentials: &oauthex.ClientCredentials{ClientID: f.cfg.ClientID,
			ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: f.cfg.ClientSecret}},
		HTTPClient: f.hc,
	})
	if err != nil {
		return nil, fmt.Errorf("the client_credentials grant: %w", err)
	}
	return &clientCredentials{f: f, h: h}, nil
}

// clientCredentials gets a token with the client_credentials grant and
// makes it the token in use. The token is not stored: the client's
// secret gets a new one whenever the server asks.
type clientCredentials struct {
	f *Flow
	h *extauth.ClientCredentialsHandler
}

// Authorize runs the grant and adopts its token.
func (c *clientCredentials) Authorize(ctx context.Context, req *http.Request, rsp *http.Response) error {
	if err := c.h.Authorize(ctx, req, rsp); err != nil {
		return err
	}
	src, err := c.h.TokenSource(ctx)
	if err != nil || src == nil {
		return fmt.Errorf("the client_credentials grant issued no token: %v", err)
	}
	tok, err := src.Token()
	if err != nil {
		return err
	}
	if err := sendable(tok); err != nil {
		return fmt.Errorf("the token endpoint issued a token that cannot be used: %w", err)
	}
	f := c.f
	f.mu.Lock()
	f.source, f.oc = oauth2.ReuseTokenSource(tok, src), nil
	f.entry = tokenstore.Entry{Resource: f.resource, ClientID: f.cfg.ClientID, Registration: RegistrationPreregistered,
		AccessToken: tok.AccessToken, TokenType: tok.TokenType, Expiry: tok.Expiry, Saved: time.Now().UTC()}
	f.mu.Unlock()
	return nil
}
